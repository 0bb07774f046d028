// The test runner, the sandbox each test talks to, and the waits: every wait is on a condition, polled on the
// SDK's dispatch descriptor, with a bound that fails the test instead of hanging it.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net.Sockets;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using BlinkEngage;

[AttributeUsage(AttributeTargets.Method)]
sealed class TestAttribute : Attribute { }

sealed class AssertionFailed : Exception
{
    public AssertionFailed(string message) : base(message) { }
}

static class Assert
{
    public static void True(bool condition, string what)
    {
        if (!condition) throw new AssertionFailed(what);
    }

    public static void Equal<T>(T expected, T actual, string what)
    {
        if (!EqualityComparer<T>.Default.Equals(expected, actual))
            throw new AssertionFailed(what + ": expected <" + expected + ">, got <" + actual + ">");
    }

    public static TException Throws<TException>(Action action, string what) where TException : Exception
    {
        try { action(); }
        catch (TException e) { return e; }
        catch (Exception e) { throw new AssertionFailed(what + ": threw " + e.GetType().Name + " (" + e.Message + "), not " + typeof(TException).Name); }
        throw new AssertionFailed(what + ": threw nothing, expected " + typeof(TException).Name);
    }
}

static class Runner
{
    static int Main(string[] args)
    {
        var filter = args.Length > 0 ? args[0] : "";
        int passed = 0, failed = 0;
        foreach (var type in typeof(Runner).Assembly.GetTypes())
        {
            foreach (var method in type.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic))
            {
                if (method.GetCustomAttributes(typeof(TestAttribute), false).Length == 0) continue;
                var name = type.Name + "." + method.Name;
                if (filter.Length > 0 && name.IndexOf(filter, StringComparison.Ordinal) < 0) continue;
                try
                {
                    method.Invoke(null, null);
                    passed++;
                    Console.WriteLine("pass " + name);
                }
                catch (TargetInvocationException e)
                {
                    failed++;
                    Console.WriteLine("FAIL " + name + ": " + e.InnerException);
                }
            }
        }
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 && passed > 0 ? 0 : 1;
    }
}

// sandbox/server.py on an ephemeral loopback port, stopped (stdin closed) when disposed.
sealed class Sandbox : IDisposable
{
    readonly Process process;
    public readonly string Url;
    public readonly int Port;
    public readonly string StorageDir;

    public Sandbox()
    {
        var server = Path.Combine(Environment.GetEnvironmentVariable("BE_TOP_DIR") ?? "../..", "sandbox", "server.py");
        var start = new ProcessStartInfo("python3", "\"" + server + "\" --exit-on-stdin-eof")
        {
            UseShellExecute = false, RedirectStandardInput = true, RedirectStandardOutput = true,
        };
        process = Process.Start(start);
        var line = process.StandardOutput.ReadLine() ?? "";
        if (!line.StartsWith("listening on ")) throw new AssertionFailed("the sandbox did not start: " + line);
        Url = line.Substring("listening on ".Length).Trim();
        Port = int.Parse(Url.Substring(Url.LastIndexOf(':') + 1));
        StorageDir = Path.Combine(Path.GetTempPath(), "be-csharp-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(StorageDir);
    }

    public Config Config(string apiKey = "demo-key")
    {
        return new Config(apiKey).SetMomentsUrl(Url + "/native/v4").SetEngageUrl(Url)
            .SetZoneAdUrl(Url + "/api/adAPI.php?AdID={zone}").SetStorageDir(StorageDir);
    }

    public string Get(string path) { return Http.Exchange(Port, "GET", path, null); }
    public string Post(string path, string json = "{}") { return Http.Exchange(Port, "POST", path, json); }

    // How many requests whose path contains `part` the sandbox has received.
    public int Requests(string part)
    {
        return Regex.Matches(Get("/_sandbox/requests"), "\"path\": \"[^\"]*" + Regex.Escape(part)).Count;
    }

    public void Dispose()
    {
        process.StandardInput.Close();
        process.WaitForExit();
        try { Directory.Delete(StorageDir, true); } catch (IOException) { }
    }
}

// HTTP/1.0 over a socket: what the tests need of the sandbox's control endpoints and of a host transport.
static class Http
{
    public static string Exchange(int port, string method, string path, string body)
    {
        var bytes = Send(port, method + " " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n",
                         body == null ? new byte[0] : Encoding.UTF8.GetBytes(body), "application/json");
        var text = Encoding.UTF8.GetString(bytes);
        var split = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        return split < 0 ? text : text.Substring(split + 4);
    }

    // The raw answer, status line and headers included.
    public static byte[] Send(int port, string head, byte[] body, string contentType)
    {
        using (var client = new TcpClient("127.0.0.1", port))
        using (var stream = client.GetStream())
        {
            var request = head + "Content-Type: " + contentType + "\r\nContent-Length: " + body.Length + "\r\nConnection: close\r\n\r\n";
            var headBytes = Encoding.ASCII.GetBytes(request);
            stream.Write(headBytes, 0, headBytes.Length);
            stream.Write(body, 0, body.Length);
            var answer = new MemoryStream();
            stream.CopyTo(answer);
            return answer.ToArray();
        }
    }
}

static class Wait
{
    [StructLayout(LayoutKind.Sequential)]
    struct PollFd { public int fd; public short events; public short revents; }

    [DllImport("libc", SetLastError = true)]
    static extern int poll([In, Out] PollFd[] fds, UIntPtr count, int timeout);

    // Dispatches `sdk` on this thread until `done` holds; waits on the dispatch descriptor between rounds.
    // Fails after 30 s without the condition: a bound for a broken build, not a timing the test relies on.
    public static void Until(BlinkEngageSDK sdk, Func<bool> done, string what)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        var fds = new[] { new PollFd { fd = sdk.DispatchFd, events = 1 } };
        while (true)
        {
            sdk.Dispatch();
            if (done()) return;
            if (DateTime.UtcNow > deadline) throw new AssertionFailed("timed out waiting for " + what);
            poll(fds, (UIntPtr)1, 100);
        }
    }

    // A result delivered through a completion, with the thread it ran on.
    public sealed class Result<T> where T : class
    {
        public T Value;
        public ServiceException Error;
        public int Thread = -1;
        public bool Done;

        public void Set(T value, ServiceException error)
        {
            Value = value;
            Error = error;
            Thread = System.Threading.Thread.CurrentThread.ManagedThreadId;
            Done = true;
        }
    }

    public static Result<T> For<T>(BlinkEngageSDK sdk, Action<Action<T, ServiceException>> start, string what) where T : class
    {
        var result = new Result<T>();
        start(result.Set);
        Until(sdk, () => result.Done, what);
        return result;
    }
}
