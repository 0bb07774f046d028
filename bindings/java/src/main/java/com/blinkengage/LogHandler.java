package com.blinkengage;

/** Receives the library's log messages: on whichever thread logs, possibly several at once; must not call the library. */
@FunctionalInterface
public interface LogHandler {
    void log(LogLevel level, String message);
}
