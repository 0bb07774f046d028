package com.blinkengage;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** sandbox/server.py on an ephemeral loopback port, stopped (its stdin closed) by close(). */
final class Sandbox implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final Process process;
    final String url;
    final Path storage;

    Sandbox() throws IOException {
        String top = System.getProperty("blinkengage.top", "../..");
        process = new ProcessBuilder("python3", top + "/sandbox/server.py", "--exit-on-stdin-eof")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (line == null || !line.startsWith("listening on ")) throw new IOException("the sandbox did not start: " + line);
        url = line.substring("listening on ".length()).trim();
        storage = Files.createTempDirectory("be-java-");
    }

    Config config() {
        return new Config("demo-key").momentsUrl(url + "/native/v4").engageUrl(url)
                .zoneAdUrl(url + "/api/adAPI.php?AdID={zone}").storageDir(storage.toString());
    }

    String get(String path) throws Exception {
        return HTTP.send(java.net.http.HttpRequest.newBuilder(URI.create(url + path)).build(), BodyHandlers.ofString()).body();
    }

    String post(String path, String json) throws Exception {
        return HTTP.send(java.net.http.HttpRequest.newBuilder(URI.create(url + path)).POST(BodyPublishers.ofString(json))
                .header("Content-Type", "application/json").build(), BodyHandlers.ofString()).body();
    }

    /** How many requests whose path contains {@code part} the sandbox received. */
    int requests(String part) throws Exception {
        Matcher m = Pattern.compile("\"path\": \"[^\"]*" + Pattern.quote(part)).matcher(get("/_sandbox/requests"));
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @Override public void close() throws Exception {
        process.getOutputStream().close();
        process.waitFor();
        try (Stream<Path> walk = Files.walk(storage)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
