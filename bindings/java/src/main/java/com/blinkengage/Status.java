package com.blinkengage;

/** The status of a synchronous call (be_status); a failure arrives as a {@link BlinkEngageException}. */
public enum Status {
    OK(0), INVALID_ARGUMENT(-1), INVALID_STATE(-2), NOT_FOUND(-3), IO(-4), TIMEOUT(-5), NO_MEMORY(-6);

    final int code;

    Status(int code) { this.code = code; }

    public int code() { return code; }

    static Status of(int code) {
        for (Status status : values()) if (status.code == code) return status;
        throw new IllegalArgumentException("unknown status " + code);
    }
}
