package com.blinkengage;

/** A call the library refused: its {@link Status} and the library's own message (be_last_error_message). */
public class BlinkEngageException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Status status;

    BlinkEngageException(Status status, String message) {
        super(message);
        this.status = status;
    }

    public Status status() { return status; }

    static BlinkEngageException last(int status) {
        String message = Text.decode(Native.lastErrorMessage());
        return new BlinkEngageException(Status.of(status), message == null || message.isEmpty() ? "refused" : message);
    }
}
