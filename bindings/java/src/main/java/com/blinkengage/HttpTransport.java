package com.blinkengage;

/**
 * Sends the SDK's HTTP requests instead of the built-in transport (OkHttp, Cronet, an engine's own stack).
 * {@link #send} is called once per request, on whichever thread makes it (an SDK thread, or a host thread inside a
 * call of the library): return quickly and answer later, from any thread, with {@link HttpRequest#complete} or
 * {@link HttpRequest#fail}, exactly once. Do not close the SDK from it. What it throws fails the request.
 */
@FunctionalInterface
public interface HttpTransport {
    void send(HttpRequest request);
}
