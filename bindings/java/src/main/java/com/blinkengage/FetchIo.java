package com.blinkengage;

/** Where offer fetches do their network I/O (be_config_set_fetch_io); {@link #DISPATCH} needs dispatch mode. */
public enum FetchIo { SDK_THREAD, DISPATCH }
