#!/usr/bin/env python3
"""What can be checked of the Unity package without Unity: package.json against the UPM manifest's rules, the
asmdef as Unity reads it, every sample path present, and the plugin's .meta for Linux x86-64."""
import json
import os
import re
import sys

pkg = sys.argv[1]
errors = []
manifest = json.load(open(os.path.join(pkg, "package.json")))
if not re.fullmatch(r"[a-z0-9][a-z0-9-_.]*(\.[a-z0-9-_]+){2,}", manifest.get("name", "")) or len(manifest["name"]) > 214:
    errors.append("name must be reverse-domain, lower case: " + manifest.get("name", ""))
if not re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", manifest.get("version", "")):
    errors.append("version must be SemVer: " + manifest.get("version", ""))
if not re.fullmatch(r"\d{4}\.\d+", manifest.get("unity", "")):
    errors.append("unity must be MAJOR.MINOR: " + manifest.get("unity", ""))
for field in ("displayName", "description"):
    if not isinstance(manifest.get(field), str) or not manifest[field]:
        errors.append(field + " is required")
for sample in manifest.get("samples", []):
    if not sample.get("path", "").startswith("Samples~/") or not os.path.isdir(os.path.join(pkg, sample["path"])):
        errors.append("sample path missing: " + sample.get("path", ""))
header = open(os.path.join(pkg, "..", "..", "include", "blinkengage.h")).read()
version = ".".join(re.search(r"#define BE_VERSION_%s (\d+)" % part, header).group(1) for part in ("MAJOR", "MINOR", "PATCH"))
if manifest.get("version") != version:
    errors.append("package version %s is not the header's %s" % (manifest.get("version"), version))

asmdef = json.load(open(os.path.join(pkg, "Runtime", "BlinkEngage.Runtime.asmdef")))
if asmdef.get("name") != "BlinkEngage.Runtime":
    errors.append("asmdef name")
if not asmdef.get("allowUnsafeCode"):
    errors.append("the runtime reads strings with unsafe code: allowUnsafeCode must be true")
if not asmdef.get("noEngineReferences"):
    errors.append("the runtime must not reference UnityEngine")
for key in ("references", "includePlatforms", "excludePlatforms"):
    if not isinstance(asmdef.get(key), list):
        errors.append("asmdef %s must be a list" % key)

meta = open(os.path.join(pkg, "Plugins", "x86_64", "libblinkengage.so.meta")).read()
if "PluginImporter:" not in meta or "Standalone: Linux64" not in meta or not re.search(r"^guid: [0-9a-f]{32}$", meta, re.M):
    errors.append("Plugins/x86_64/libblinkengage.so.meta must import the library for Linux64 with a 32-digit guid")

runtime = "".join(open(os.path.join(pkg, "Runtime", name)).read() for name in os.listdir(os.path.join(pkg, "Runtime"))
                  if name.endswith(".cs"))
for banned in ("System.Reflection.Emit", "DynamicMethod", "Expression.Compile", "dynamic "):
    if banned in runtime:
        errors.append("the runtime uses %s, which IL2CPP cannot run" % banned)

if errors:
    sys.exit("csharp package: " + "; ".join(errors))
print("csharp package: package.json, asmdef, sample and plugin meta checked")
