package com.blinkengage;

/** Severity of a log message, in the header's order. */
public enum LogLevel { DEBUG, INFO, WARNING, ERROR }
