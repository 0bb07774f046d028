package com.blinkengage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A decoded Moments answer. Its offers are values, readable after {@link #close()}; what needs the answer itself
 * (styles, an offer's other fields, a screen) needs it open. Close it when done; the collector frees a forgotten one.
 */
public final class MomentsResponse extends NativeResource {
    private final List<Offer> offers;

    MomentsResponse(long borrowed) {
        super("moments response", Native.responseRetain(borrowed), Native::responseRelease);
        long handle = acquire();
        try {
            long count = Native.responseOfferCount(handle);
            List<Offer> read = new ArrayList<>();
            for (long i = 0; i < count; i++) read.add(new Offer(this, Native.responseOfferAt(handle, i)));
            offers = Collections.unmodifiableList(read);
        } finally {
            release();
        }
    }

    public List<Offer> offers() { return offers; }

    /** A style by its dotted path ("offerText.textColor"); null when absent. */
    public String style(String path) {
        byte[] bytes = Text.encode(path, "path");
        long handle = acquire();
        try {
            return Text.decode(Native.responseStyle(handle, bytes));
        } finally {
            release();
        }
    }

    public String privacyUrl() {
        long handle = acquire();
        try {
            return Text.decode(Native.responsePrivacyUrl(handle));
        } finally {
            release();
        }
    }
}
