package com.blinkengage;

/** An asynchronous failure (be_error): its domain and code, the HTTP status behind it (0 when none), the message. */
public final class ServiceException extends BlinkEngageException {
    private static final long serialVersionUID = 1L;
    private final ErrorDomain domain;
    private final String domainName;
    private final int code;
    private final int httpStatus;

    ServiceException(String domainName, int code, String message, int httpStatus) {
        super(Status.OK, domainName + " " + code + ": " + message);
        this.domainName = domainName;
        this.domain = ErrorDomain.of(domainName);
        this.code = code;
        this.httpStatus = httpStatus;
    }

    public ErrorDomain domain() { return domain; }
    /** The domain as the library named it, also for an {@link ErrorDomain#UNKNOWN} one. */
    public String domainName() { return domainName; }
    public int code() { return code; }
    public ErrorCode errorCode() { return ErrorCode.of(domain, code); }
    public int httpStatus() { return httpStatus; }
    public boolean isCancelled() { return domain == ErrorDomain.CANCELLED; }
}
