package com.blinkengage;

/** One creative (image) of an offer. */
public record Creative(String url, long width, long height, String type, boolean primary) {}
