// A host-supplied transport: the SDK's requests handed to managed code, answered from any thread.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace BlinkEngage
{
    /// <summary>Sends the SDK's HTTP requests instead of the built-in transport (Config.SetHttpTransport).
    /// <see cref="Send"/> is called once per request on whichever thread makes it (an SDK thread, or a host thread
    /// inside a call of the library, never Unity's main thread by promise): return quickly and answer later, from
    /// any thread, with <see cref="HttpRequest.Complete"/> or <see cref="HttpRequest.Fail"/>, exactly once. Do not
    /// dispose the SDK from Send. An exception thrown by Send fails the request.</summary>
    public interface IHttpTransport
    {
        void Send(HttpRequest request);
    }

    /// <summary>One request for a host transport: read when it was handed over, open until answered.</summary>
    public sealed class HttpRequest
    {
        IntPtr request;
        readonly object gate = new object();

        public string Method { get; private set; }
        public string Url { get; private set; }
        /// <summary>Header lines as (name, value) pairs, in order.</summary>
        public IReadOnlyList<KeyValuePair<string, string>> Headers { get; private set; }
        /// <summary>The body, empty for none.</summary>
        public byte[] Body { get; private set; }
        public uint TimeoutMs { get; private set; }

        internal HttpRequest(IntPtr request)
        {
            this.request = request;
            Method = Utf8.Decode(Native.be_http_request_method(request));
            Url = Utf8.Decode(Native.be_http_request_url(request));
            var count = (int)Native.be_http_request_header_count(request);
            var headers = new KeyValuePair<string, string>[count];
            for (var i = 0; i < count; i++)
            {
                headers[i] = new KeyValuePair<string, string>(Utf8.Decode(Native.be_http_request_header_name(request, (UIntPtr)i)),
                                                              Utf8.Decode(Native.be_http_request_header_value(request, (UIntPtr)i)));
            }
            Headers = headers;
            var size = checked((int)(ulong)Native.be_http_request_body_size(request));
            Body = new byte[size];
            if (size > 0) Marshal.Copy(Native.be_http_request_body(request), Body, 0, size);
            TimeoutMs = Native.be_http_request_timeout_ms(request);
        }

        /// <summary>The answer: a status, header lines ("Name: value", at most 1000 of 16 KiB each) and a body (at
        /// most 10 MiB). A refused answer throws <see cref="BlinkEngageException"/> and leaves the request open for
        /// a correct one; a second answer throws <see cref="InvalidOperationException"/>.</summary>
        public void Complete(int status, IList<string> headerLines, byte[] body)
        {
            var lines = headerLines ?? new string[0];
            var pointers = new IntPtr[lines.Count];
            try
            {
                for (var i = 0; i < lines.Count; i++)
                {
                    var bytes = Utf8.Encode(lines[i], "headerLines");
                    pointers[i] = Marshal.AllocHGlobal(bytes.Length);
                    Marshal.Copy(bytes, 0, pointers[i], bytes.Length);
                }
                lock (gate)
                {
                    var open = Open();
                    var length = body == null ? 0 : body.Length;
                    Errors.Check(Native.be_http_request_complete(open, status, pointers, (UIntPtr)pointers.Length, body, (UIntPtr)length));
                    request = IntPtr.Zero;
                }
            }
            finally
            {
                foreach (var pointer in pointers) if (pointer != IntPtr.Zero) Marshal.FreeHGlobal(pointer);
            }
        }

        /// <summary>No answer (connection refused, timeout...): the SDK treats it as a network error.</summary>
        public void Fail(string message)
        {
            var bytes = Utf8.Encode(message, "message");
            lock (gate)
            {
                Errors.Check(Native.be_http_request_fail(Open(), bytes));
                request = IntPtr.Zero;
            }
        }

        internal bool TryFail(string message)
        {
            lock (gate)
            {
                if (request == IntPtr.Zero) return false;
                Native.be_http_request_fail(request, Utf8.Encode(message, "message"));
                request = IntPtr.Zero;
                return true;
            }
        }

        IntPtr Open()
        {
            if (request == IntPtr.Zero) throw new InvalidOperationException("the request was already answered");
            return request;
        }
    }
}
