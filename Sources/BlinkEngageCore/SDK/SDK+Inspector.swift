extension SDK {
    /// The flight recorder's entries as JSON lines (`be_sdk_recorder_json`).
    /// - Throws: `.invalidState` when the recorder is off, after shutdown and in a forked child.
    public func recorderLines() throws(EngineFailure) -> String {
        try hostCall { () throws(EngineFailure) in
            guard let recorder else { throw .invalidState("the flight recorder is off (be_config_set_recorder)") }
            return recorder.jsonLines
        }
    }
}
