package com.blinkengage;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** Waits that dispatch on the calling thread until a condition holds, waiting on the dispatch descriptor in between,
 *  bounded so a broken build fails, not hangs. */
final class Results {
    private Results() {}

    static void until(Sdk sdk, BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            sdk.dispatch();
            if (done.getAsBoolean()) return;
            if (System.nanoTime() > deadline) fail("timed out waiting for " + what);
            sdk.awaitCallbacks(100);
        }
    }

    /** A result delivered to a listener, with the thread it ran on. */
    static final class Result<T> implements Listener<T> {
        volatile T value;
        volatile ServiceException error;
        volatile Thread thread;
        volatile boolean done;

        @Override public void onResult(T result, ServiceException failure) {
            value = result;
            error = failure;
            thread = Thread.currentThread();
            done = true;
        }
    }

    static <T> Result<T> await(Sdk sdk, Consumer<Listener<T>> start, String what) {
        Result<T> result = new Result<>();
        start.accept(result);
        until(sdk, () -> result.done, what);
        assertEquals(what + ": on the dispatching thread", Thread.currentThread(), result.thread);
        return result;
    }

    static <T> T ok(Sdk sdk, Consumer<Listener<T>> start, String what) {
        Result<T> result = await(sdk, start, what);
        assertNull(what + ": " + result.error, result.error);
        assertNotNull(what, result.value);
        return result.value;
    }

    static <T> ServiceException fails(Sdk sdk, Consumer<Listener<T>> start, String what) {
        Result<T> result = await(sdk, start, what);
        assertNull(what + ": no result", result.value);
        assertNotNull(what + ": an error", result.error);
        assertTrue(true);
        return result.error;
    }
}
