// A legacy zone ad, and the bytes of a fetched image.
using System;
using System.Runtime.InteropServices;

namespace BlinkEngage
{
    /// <summary>A legacy zone ad (be_zone_ad, retained while this object lives).</summary>
    public sealed class ZoneAd : IDisposable
    {
        internal readonly ZoneAdHandle Handle;

        internal ZoneAd(ZoneAdHandle handle) { Handle = handle; }

        public void Dispose() { Handle.Dispose(); }

        /// <summary>False: the zone shows nothing now.</summary>
        public bool IsEnabled { get { return Native.be_zone_ad_is_enabled(Handle) != 0; } }
        public string ImageUrl { get { return Utf8.Decode(Native.be_zone_ad_image_url(Handle)); } }
        public string LinkUrl { get { return Utf8.Decode(Native.be_zone_ad_link_url(Handle)); } }
    }

    /// <summary>The bytes of a fetched image (be_image, retained while this object lives).</summary>
    public sealed class Image : IDisposable
    {
        internal readonly ImageHandle Handle;

        internal Image(ImageHandle handle) { Handle = handle; }

        public void Dispose() { Handle.Dispose(); }

        public int Size { get { return checked((int)(ulong)Native.be_image_size(Handle)); } }
        public string ContentType { get { return Utf8.Decode(Native.be_image_content_type(Handle)); } }
        /// <summary>True when the memory or disk cache answered, revalidated or not.</summary>
        public bool IsFromCache { get { return Native.be_image_is_from_cache(Handle) != 0; } }

        /// <summary>A copy of the bytes (at most 10 MiB).</summary>
        public byte[] Data
        {
            get
            {
                using (new Lease(Handle))
                {
                    var bytes = new byte[Size];
                    if (bytes.Length > 0) Marshal.Copy(Native.be_image_data(Handle), bytes, 0, bytes.Length);
                    return bytes;
                }
            }
        }
    }
}
