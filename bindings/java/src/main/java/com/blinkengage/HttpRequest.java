package com.blinkengage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** One request for a host transport: read when handed over, open until answered. */
public final class HttpRequest {
    private long pointer;
    private final String method;
    private final String url;
    private final List<Map.Entry<String, String>> headers;
    private final byte[] body;
    private final long timeoutMs;

    HttpRequest(long pointer) {
        this.pointer = pointer;
        method = Text.decode(Native.httpMethod(pointer));
        url = Text.decode(Native.httpUrl(pointer));
        long count = Native.httpHeaderCount(pointer);
        List<Map.Entry<String, String>> read = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            read.add(Map.entry(Text.decode(Native.httpHeaderName(pointer, i)), Text.decode(Native.httpHeaderValue(pointer, i))));
        }
        headers = Collections.unmodifiableList(read);
        byte[] bytes = Native.httpBody(pointer);
        body = bytes == null ? new byte[0] : bytes;
        timeoutMs = Native.httpTimeoutMs(pointer);
    }

    public String method() { return method; }
    public String url() { return url; }
    /** (name, value) pairs in order. */
    public List<Map.Entry<String, String>> headers() { return headers; }
    /** The body; empty for none. A copy: changing it changes nothing. */
    public byte[] body() { return body.clone(); }
    public long timeoutMs() { return timeoutMs; }

    /**
     * The answer: a status, "Name: value" header lines (at most 1000 of 16 KiB) and a body (at most 10 MiB). A
     * refused answer throws {@link BlinkEngageException} and leaves the request open for a correct one; a second
     * answer throws IllegalStateException.
     */
    public synchronized void complete(int status, List<String> headerLines, byte[] body) {
        byte[][] lines = new byte[headerLines == null ? 0 : headerLines.size()][];
        for (int i = 0; i < lines.length; i++) lines[i] = Text.encode(headerLines.get(i), "headerLines");
        Text.check(Native.httpComplete(open(), status, lines, body));
        pointer = 0;
    }

    /** No answer (connection refused, timeout...): a network error for the SDK. */
    public synchronized void fail(String message) {
        Text.check(Native.httpFail(open(), Text.encode(message, "message")));
        pointer = 0;
    }

    synchronized boolean failIfOpen(String message) {
        if (pointer == 0) return false;
        Native.httpFail(pointer, Text.encode(message, "message"));
        pointer = 0;
        return true;
    }

    private long open() {
        if (pointer == 0) throw new IllegalStateException("the request was already answered");
        return pointer;
    }
}
