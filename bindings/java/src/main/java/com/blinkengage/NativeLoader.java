package com.blinkengage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Loads the JNI shim and the library behind it. The jar carries both for each platform it supports, under
 * {@code /native/OS-ARCH/}; they are copied into a directory of their own (under {@code java.io.tmpdir}, or
 * {@code blinkengage.native.dir}) and loaded from there, the library first, so that {@code java -cp blinkengage.jar}
 * needs nothing else. {@code blinkengage.jni.path} names a shim to load instead, and a jar without the platform's
 * files falls back to {@code System.loadLibrary("blinkengage_jni")} (an Android app's own jniLibs).
 */
final class NativeLoader {
    private NativeLoader() {}

    static final String SHIM = "libblinkengage_jni.so", LIBRARY = "libblinkengage.so.1";

    static void load() {
        String path = System.getProperty("blinkengage.jni.path");
        if (path != null) {
            System.load(path);
            return;
        }
        String folder = "/native/" + platform() + "/";
        if (NativeLoader.class.getResource(folder + SHIM) == null) {
            System.loadLibrary("blinkengage_jni");
            return;
        }
        try {
            Path directory = directory();
            Path library = extract(folder + LIBRARY, directory.resolve(LIBRARY));
            Path shim = extract(folder + SHIM, directory.resolve(SHIM));
            System.load(library.toString());
            System.load(shim.toString());
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("blinkengage: could not unpack the native library: " + e);
        }
    }

    /** "linux-x86_64", "linux-aarch64": what the jar's folders are named by. */
    static String platform() {
        String name = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String os = name.startsWith("linux") ? "linux" : name.replace(' ', '-');
        String arch = System.getProperty("os.arch", "");
        if (arch.equals("amd64") || arch.equals("x86_64")) arch = "x86_64";
        else if (arch.equals("aarch64") || arch.equals("arm64")) arch = "aarch64";
        return os + "-" + arch;
    }

    /** A new private directory: never a shared, predictable path another user could have planted a library in. */
    private static Path directory() throws IOException {
        String base = System.getProperty("blinkengage.native.dir");
        Path parent = base != null ? Files.createDirectories(Path.of(base)) : Path.of(System.getProperty("java.io.tmpdir"));
        Path directory = Files.createTempDirectory(parent, "blinkengage-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        directory.toFile().deleteOnExit();
        return directory;
    }

    private static Path extract(String resource, Path target) throws IOException {
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) throw new IOException(resource + " is not in the jar");
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        // Loaded once mapped; removed when the JVM exits.
        target.toFile().deleteOnExit();
        return target;
    }
}
