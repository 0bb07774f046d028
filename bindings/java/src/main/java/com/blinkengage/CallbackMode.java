package com.blinkengage;

/** Where callbacks run: on a thread the SDK owns, or on the thread that calls {@link Sdk#dispatch()}. */
public enum CallbackMode { SDK_THREAD, DISPATCH }
