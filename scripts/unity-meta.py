#!/usr/bin/env python3
"""Writes the .meta file Unity needs beside every file and folder of the UPM package (bindings/csharp) that has
none: Unity ignores an asset without one in a package added by git URL or tarball, where it cannot write one.
Each GUID is the MD5 of the package name and the asset's path in the package, so it is the same on every machine
and never changes while the asset keeps its path. Folders ending in "~" and hidden ones are not assets (Unity skips
them: Tests~, Examples~, Samples~). Existing .meta files are left as they are.
    scripts/unity-meta.py [PACKAGE_DIR]          writes what is missing, prints what it wrote"""
import hashlib
import os
import sys

PACKAGE = "com.blinkengage.sdk"
TAIL = "  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n"


def guid(relative):
    return hashlib.md5((PACKAGE + "/" + relative).encode("utf-8")).hexdigest()


def importer(path):
    """The importer block Unity writes for an asset of this kind."""
    name = os.path.basename(path)
    if os.path.isdir(path):
        return "folderAsset: yes\nDefaultImporter:\n" + TAIL
    if name.endswith(".cs"):
        return ("MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n"
                "  executionOrder: 0\n  icon: {instanceID: 0}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n")
    if name.endswith(".asmdef"):
        return "AssemblyDefinitionImporter:\n" + TAIL
    if name == "package.json":
        return "PackageManifestImporter:\n" + TAIL
    if name.endswith((".md", ".txt", ".json")):
        return "TextScriptImporter:\n" + TAIL
    return "DefaultImporter:\n" + TAIL


def assets(package):
    """Every path of the package Unity imports, relative to it."""
    for root, folders, files in os.walk(package):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and not f.endswith("~"))
        for name in sorted(folders) + sorted(files):
            if name.startswith(".") or name.endswith("~") or name.endswith(".meta"):
                continue
            yield os.path.relpath(os.path.join(root, name), package)


def main():
    package = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "bindings", "csharp")
    for relative in assets(package):
        meta = os.path.join(package, relative + ".meta")
        if os.path.exists(meta):
            continue
        with open(meta, "w", encoding="utf-8") as file:
            file.write("fileFormatVersion: 2\nguid: %s\n%s" % (guid(relative), importer(os.path.join(package, relative))))
        print("wrote " + relative + ".meta")


if __name__ == "__main__":
    main()
