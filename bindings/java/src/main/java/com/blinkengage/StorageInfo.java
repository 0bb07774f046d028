package com.blinkengage;

/** What a storage directory holds for one API key (be_storage_info). */
public record StorageInfo(long beaconsQueued, long eventsQueued, long oldestItemAgeSeconds, long databaseBytes,
                          long imageCacheBytes, long imageCacheFiles, boolean hasIdentity) {}
