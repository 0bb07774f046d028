package com.blinkengage;

/** Counters since the SDK started (be_stats); the header says what each counts. */
public record Stats(long requestsSent, long beaconsQueued, long beaconsDelivered, long beaconsDropped,
                    long eventsQueued, long eventsDelivered, long eventsDropped, long droppedRejected,
                    long droppedExpired, long droppedOverflow, long corruptRecords, long queueDepth,
                    long droppedPrivacy, long prefetchHits, long imageRequests, long imageMemoryHits,
                    long imageDiskHits, long imageRevalidations, long imageShared, long viewableImpressions,
                    long crashLoopMode, long storageRefused, long storageFormatHeld, long reportsMigrated,
                    long reportsUnrecoverable, long feedEventsRefused) {}
