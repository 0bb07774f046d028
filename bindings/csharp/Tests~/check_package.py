#!/usr/bin/env python3
"""What can be checked of the Unity package without Unity: package.json against the UPM manifest's rules, the
asmdefs as Unity reads them, every sample path present under Samples~, the plugin's .meta for Linux x86-64, and
every asset's .meta as Unity needs it in a package it cannot write to (a git URL or a tarball): one beside every
file and folder Unity imports, none orphaned, each GUID well-formed, unique and the one scripts/unity-meta.py
derives from the asset's path (the plugin's keeps the GUID 0.2.0 shipped with)."""
import hashlib
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

unity_asmdef = json.load(open(os.path.join(pkg, "Unity", "BlinkEngage.Unity.asmdef")))
if unity_asmdef.get("references") != ["BlinkEngage.Runtime"] or unity_asmdef.get("noEngineReferences"):
    errors.append("the Unity assembly references BlinkEngage.Runtime and UnityEngine")

# Every asset's .meta. Unity imports every file and folder but hidden ones, those ending in "~" and the .meta files
# themselves; the plugin's library is copied in by make unity-package, so its .meta may stand alone here.
PLUGIN_GUID = "5c1e0b7f3a2d4e6f8b9a0c1d2e3f4a5b"  # as released in 0.2.0: a new GUID would break a project's references
guids = {}
for root, folders, files in os.walk(pkg):
    folders[:] = [f for f in folders if not f.startswith(".") and not f.endswith("~")]
    for name in folders + files:
        if name.startswith(".") or name.endswith("~"):
            continue
        path = os.path.join(root, name)
        relative = os.path.relpath(path, pkg)
        if name.endswith(".meta"):
            asset = path[:-len(".meta")]
            if not os.path.exists(asset) and not re.fullmatch(r"Plugins/[^/]+/libblinkengage\.[a-z]+\.meta", relative):
                errors.append("an orphaned .meta: " + relative)
            continue
        meta = path + ".meta"
        if not os.path.exists(meta):
            errors.append(relative + " has no .meta (scripts/unity-meta.py writes one)")
            continue
        text = open(meta).read()
        found = re.search(r"^guid: ([0-9a-f]{32})$", text, re.M)
        if not text.startswith("fileFormatVersion: 2\n") or not found:
            errors.append(relative + ".meta: not fileFormatVersion 2 with a 32-digit guid")
            continue
        guid = found.group(1)
        if guid in guids:
            errors.append("%s.meta and %s.meta share the guid %s" % (relative, guids[guid], guid))
        guids[guid] = relative
        derived = hashlib.md5(("com.blinkengage.sdk/" + relative).encode()).hexdigest()
        if guid != derived:
            errors.append(relative + ".meta: the guid is not the one derived from its path")
        if os.path.isdir(path) and "folderAsset: yes" not in text:
            errors.append(relative + ".meta: a folder's meta says folderAsset: yes")
        if name.endswith(".cs") and "MonoImporter:" not in text:
            errors.append(relative + ".meta: a script's meta has a MonoImporter")
        if name.endswith(".asmdef") and "AssemblyDefinitionImporter:" not in text:
            errors.append(relative + ".meta: an asmdef's meta has an AssemblyDefinitionImporter")
if not re.search(r"^guid: %s$" % PLUGIN_GUID, open(os.path.join(pkg, "Plugins", "x86_64", "libblinkengage.so.meta")).read(), re.M):
    errors.append("the plugin's guid changed from 0.2.0's")

runtime = "".join(open(os.path.join(pkg, "Runtime", name)).read() for name in os.listdir(os.path.join(pkg, "Runtime"))
                  if name.endswith(".cs"))
for banned in ("System.Reflection.Emit", "DynamicMethod", "Expression.Compile", "dynamic "):
    if banned in runtime:
        errors.append("the runtime uses %s, which IL2CPP cannot run" % banned)

if errors:
    sys.exit("csharp package: " + "; ".join(errors))
print("csharp package: package.json, asmdefs, sample, plugin and %d asset .meta files checked" % len(guids))
