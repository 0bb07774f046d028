package com.blinkengage;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strings to and from the library: NUL-terminated UTF-8, refused in Java when C could not read them as given. */
final class Text {
    private Text() {}

    /** A NUL-terminated copy; NullPointerException for null, IllegalArgumentException for a NUL inside or an
     *  unpaired surrogate (which UTF-8 cannot carry: the library would refuse the bytes anyway). */
    static byte[] encode(String value, String parameter) {
        if (value == null) throw new NullPointerException(parameter + " is null");
        return encodeNullable(value, parameter);
    }

    /** The same, with null passed on as NULL where the header gives NULL a meaning. */
    static byte[] encodeNullable(String value, String parameter) {
        if (value == null) return null;
        if (value.indexOf('\0') >= 0) throw new IllegalArgumentException(parameter + " contains a NUL character");
        byte[] ascii = ascii(value);
        if (ascii != null) return ascii;
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(value));
            byte[] bytes = new byte[encoded.remaining() + 1];
            encoded.get(bytes, 0, bytes.length - 1);
            return bytes;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(parameter + " is not valid UTF-16 text", e);
        }
    }

    // Most keys, ids and URLs are ASCII: copied without an encoder (one is made per call otherwise).
    private static byte[] ascii(String value) {
        int length = value.length();
        byte[] bytes = new byte[length + 1];
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c >= 0x80) return null;
            bytes[i] = (byte) c;
        }
        return bytes;
    }

    static String decode(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Throws the library's message for a failing status; must run on the thread of the call, right after it. */
    static void check(int status) {
        if (status != Status.OK.code) throw BlinkEngageException.last(status);
    }
}
