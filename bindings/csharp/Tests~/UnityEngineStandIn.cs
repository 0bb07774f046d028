// The two UnityEngine types the sample uses, so the sample compiles here; Unity's own replace them.
namespace UnityEngine
{
    public class Object { }
    public class Component : Object { }
    public class Behaviour : Component { }
    public class MonoBehaviour : Behaviour { }

    public static class Debug
    {
        public static void Log(object message) { System.Console.WriteLine(message); }
        public static void LogWarning(object message) { System.Console.WriteLine(message); }
    }
}
