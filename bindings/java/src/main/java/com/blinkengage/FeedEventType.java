package com.blinkengage;

/** What a feed event reports: {@link #DID_APPEAR} and {@link #DID_TAP} take an offer, {@link #VIEW_ALL} a group. */
public enum FeedEventType { DID_APPEAR, DID_TAP, VIEW_ALL }
