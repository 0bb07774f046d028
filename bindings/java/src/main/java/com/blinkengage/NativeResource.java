package com.blinkengage;

import java.lang.ref.Cleaner;
import java.util.function.LongConsumer;

/**
 * A handle the host owns. Calls {@link #acquire} it for their length, so {@link #close} never frees it under a
 * running call: a close while calls run (a close inside a callback run by dispatch()) frees it when the last one
 * returns. A handle the host forgets is freed by a Cleaner. Using it after close throws IllegalStateException,
 * never a native crash.
 */
abstract class NativeResource implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    /** What the Cleaner holds: never the resource itself, or it could not be collected. */
    private static final class State implements Runnable {
        private final LongConsumer free;
        private long pointer;
        private int users;
        private boolean closed;

        State(long pointer, LongConsumer free) {
            this.pointer = pointer;
            this.free = free;
        }

        @Override public void run() {
            long held;
            synchronized (this) {
                held = pointer;
                pointer = 0;
                closed = true;
            }
            if (held != 0) free.accept(held);
        }
    }

    private final State state;
    private final Cleaner.Cleanable cleanable;
    private final String name;

    NativeResource(String name, long pointer, LongConsumer free) {
        if (pointer == 0) throw new IllegalArgumentException(name + ": no handle");
        this.name = name;
        this.state = new State(pointer, free);
        this.cleanable = CLEANER.register(this, state);
    }

    final long acquire() {
        synchronized (state) {
            if (state.closed) throw new IllegalStateException(name + " is closed");
            state.users++;
            return state.pointer;
        }
    }

    final void release() {
        synchronized (state) {
            if (--state.users > 0 || !state.closed) return;
        }
        cleanable.clean();
    }

    final boolean isClosed() {
        synchronized (state) {
            return state.closed;
        }
    }

    /** Frees the handle now, or when the last call using it returns. A second close does nothing. */
    @Override public void close() {
        synchronized (state) {
            if (state.closed) return;
            state.closed = true;
            if (state.users > 0) return;
        }
        cleanable.clean();
    }
}
