// The few UnityEngine types the sample and BlinkEngageRunner use, so that both compile and the runner's tests run
// here; Unity's own replace them. Frames are the tests' calls of Update, as Unity's player loop makes them.
using System;
using System.Collections.Generic;

namespace UnityEngine
{
    public class Object
    {
        /// <summary>What DontDestroyOnLoad was called for, for the tests.</summary>
        public static readonly List<Object> KeptAcrossScenes = new List<Object>();
        public static void DontDestroyOnLoad(Object target) { KeptAcrossScenes.Add(target); }
    }

    public class Component : Object
    {
        public GameObject gameObject { get; internal set; }
    }

    public class Behaviour : Component { }
    public class MonoBehaviour : Behaviour { }

    public sealed class GameObject : Object
    {
        public readonly string name;
        public readonly List<Component> Components = new List<Component>();
        public GameObject(string name) { this.name = name; }

        public T AddComponent<T>() where T : Component, new()
        {
            var component = new T { gameObject = this };
            Components.Add(component);
            return component;
        }
    }

    public static class Application
    {
        public static string persistentDataPath = System.IO.Path.GetTempPath();
    }

    public static class Debug
    {
        /// <summary>What LogException was called with, for the tests.</summary>
        public static readonly List<Exception> Logged = new List<Exception>();
        public static void Log(object message) { Console.WriteLine(message); }
        public static void LogWarning(object message) { Console.WriteLine(message); }
        public static void LogException(Exception exception) { Logged.Add(exception); }
    }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class AddComponentMenu : Attribute
    {
        public AddComponentMenu(string menuName) { }
    }
}
