package com.blinkengage;

/**
 * Receives the result of an asynchronous call exactly once: a result and no error, or an error and no result. It
 * runs on the thread that calls {@link Sdk#dispatch()} in dispatch mode, else on the SDK's callback thread. What it
 * throws is caught and handed to {@link BlinkEngage#setUncaughtHandler}, never left to native code.
 */
@FunctionalInterface
public interface Listener<T> {
    void onResult(T result, ServiceException error);
}
