// Strings across the boundary, the library's errors as exceptions, and the handles the host owns.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace BlinkEngage
{
    internal static class Utf8
    {
        // Throws on a lone surrogate instead of sending U+FFFD: the library refuses what is not valid UTF-8, and
        // a host's string should fail here with its parameter's name rather than arrive changed.
        static readonly UTF8Encoding Strict = new UTF8Encoding(false, true);

        // A NUL-terminated copy of `value`; ArgumentNullException for null, ArgumentException for a NUL inside
        // (C would read the string as cut there) or for text that is not valid UTF-16.
        internal static byte[] Encode(string value, string parameter)
        {
            if (value == null) throw new ArgumentNullException(parameter);
            return EncodeNullable(value, parameter);
        }

        // The same, with null passed on as NULL (where the header gives NULL a meaning).
        internal static byte[] EncodeNullable(string value, string parameter)
        {
            if (value == null) return null;
            if (value.IndexOf('\0') >= 0) throw new ArgumentException("contains a NUL character", parameter);
            var ascii = Ascii(value);
            if (ascii != null) return ascii;
            try
            {
                var bytes = new byte[Strict.GetByteCount(value) + 1];
                Strict.GetBytes(value, 0, value.Length, bytes, 0);
                return bytes;
            }
            catch (EncoderFallbackException e)
            {
                throw new ArgumentException("is not valid UTF-16 text: " + e.Message, parameter);
            }
        }

        // Most keys, ids and URLs are ASCII: copied without the encoder's two passes.
        static byte[] Ascii(string value)
        {
            var bytes = new byte[value.Length + 1];
            for (var i = 0; i < value.Length; i++)
            {
                var c = value[i];
                if (c >= 0x80) return null;
                bytes[i] = (byte)c;
            }
            return bytes;
        }

        // A borrowed NUL-terminated UTF-8 string, copied; null for NULL.
        internal static unsafe string Decode(IntPtr text)
        {
            if (text == IntPtr.Zero) return null;
            var bytes = (byte*)text;
            var length = 0;
            while (bytes[length] != 0) length++;
            return Encoding.UTF8.GetString(bytes, length);
        }
    }

    internal static class Errors
    {
        // Throws the library's own message when `status` is a failure. Must run on the thread that made the
        // call, right after it: the message is thread-local and the next failing call replaces it.
        internal static void Check(Status status)
        {
            if (status != Status.Ok) throw Last(status);
        }

        internal static BlinkEngageException Last(Status status)
        {
            return new BlinkEngageException(status, Utf8.Decode(Native.be_last_error_message()));
        }

        // For calls that answer NULL on failure: the message says why.
        internal static BlinkEngageException LastForNull()
        {
            var message = Utf8.Decode(Native.be_last_error_message());
            return new BlinkEngageException(Status.InvalidArgument, string.IsNullOrEmpty(message) ? "refused" : message);
        }
    }

    // Holds a handle for the length of a read of something borrowed from it (an offer from its response), so
    // the owner cannot be released under the read; ObjectDisposedException when it already was. A struct in a
    // using statement: no allocation.
    internal struct Lease : IDisposable
    {
        readonly SafeHandle owner;
        readonly bool added;

        internal Lease(SafeHandle owner)
        {
            this.owner = owner;
            added = false;
            owner.DangerousAddRef(ref added);
        }

        public void Dispose()
        {
            if (added) owner.DangerousRelease();
        }
    }

    internal abstract class NativeHandle : SafeHandle
    {
        protected NativeHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        internal IntPtr Pointer { get { return handle; } }
    }

    internal sealed class ConfigHandle : NativeHandle
    {
        // The log handler and transport set on this configuration: an SDK started from it takes its own
        // reference, so they stay alive while either may call them.
        internal Anchor LogAnchor, TransportAnchor;

        protected override bool ReleaseHandle()
        {
            Native.be_config_free(handle);
            Anchor.Release(ref LogAnchor);
            Anchor.Release(ref TransportAnchor);
            return true;
        }
    }

    internal sealed class SdkHandle : NativeHandle
    {
        internal uint ShutdownTimeoutMs = 2000;
        internal Anchor LogAnchor, TransportAnchor;

        // Runs when the last call holding the handle has returned, so a Dispose inside a callback run by
        // Dispatch shuts down after Dispatch returns. A callback on the SDK's own thread holds no call: there
        // the shutdown, which the library refuses from its own callbacks, runs on a thread of its own.
        protected override bool ReleaseHandle()
        {
            if (Callbacks.InCallback)
            {
                var thread = new System.Threading.Thread(Shutdown) { Name = "blinkengage-shutdown", IsBackground = true };
                thread.Start();
                return true;
            }
            Shutdown();
            return true;
        }

        void Shutdown()
        {
            Native.be_sdk_shutdown(handle, ShutdownTimeoutMs);
            Anchor.Release(ref LogAnchor);
            Anchor.Release(ref TransportAnchor);
        }
    }

    internal sealed class MomentsRequestHandle : NativeHandle
    {
        protected override bool ReleaseHandle() { Native.be_moments_request_free(handle); return true; }
    }

    internal sealed class MomentsResponseHandle : NativeHandle
    {
        internal MomentsResponseHandle() { }
        internal MomentsResponseHandle(IntPtr borrowed) { SetHandle(Native.be_moments_response_retain(borrowed)); }
        protected override bool ReleaseHandle() { Native.be_moments_response_release(handle); return true; }
    }

    internal sealed class OfferFeedHandle : NativeHandle
    {
        internal OfferFeedHandle() { }
        internal OfferFeedHandle(IntPtr borrowed) { SetHandle(Native.be_offer_feed_retain(borrowed)); }
        protected override bool ReleaseHandle() { Native.be_offer_feed_release(handle); return true; }
    }

    internal sealed class OfferScreenHandle : NativeHandle
    {
        protected override bool ReleaseHandle() { Native.be_offer_screen_free(handle); return true; }
    }

    internal sealed class OfferWallHandle : NativeHandle
    {
        protected override bool ReleaseHandle() { Native.be_offer_wall_free(handle); return true; }
    }

    internal sealed class OfferFeedEventHandle : NativeHandle
    {
        protected override bool ReleaseHandle() { Native.be_offer_feed_event_free(handle); return true; }
    }

    internal sealed class ZoneAdHandle : NativeHandle
    {
        internal ZoneAdHandle() { }
        internal ZoneAdHandle(IntPtr borrowed) { SetHandle(Native.be_zone_ad_retain(borrowed)); }
        protected override bool ReleaseHandle() { Native.be_zone_ad_release(handle); return true; }
    }

    internal sealed class ImageHandle : NativeHandle
    {
        internal ImageHandle() { }
        internal ImageHandle(IntPtr borrowed) { SetHandle(Native.be_image_retain(borrowed)); }
        protected override bool ReleaseHandle() { Native.be_image_release(handle); return true; }
    }
}
