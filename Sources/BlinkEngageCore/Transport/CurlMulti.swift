internal import CCurl

/// One libcurl multi handle and the transfers on it, shared by the two ways of driving it: a thread of its own
/// (`CurlTransport`) or whichever thread calls `drive` (`DrivenTransport`). Every request sent through it shares
/// its connections (keep-alive, a total-connection cap).
// Safe: one thread at a time has it: the transport thread that makes and ends it, or a driver under the driver lock.
final class CurlMulti: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    private let options: TransportOptions
    private var active: [UnsafeMutableRawPointer: EasyHandle] = [:]
    /// Easy handles of finished requests, with their options, for the next ones: a new handle costs an
    /// allocation of libcurl's whole per-transfer state and its zeroing, every request.
    private var idle: [PreparedHandle] = []
    /// How many finished easy handles are kept for reuse.
    private static let idleHandles = 4

    init(options: TransportOptions) throws(EngineFailure) {
        guard CurlGlobal.isReady else { throw .invalidState("libcurl could not be initialised") }
        guard let raw = curl_multi_init() else { throw .noMemory("libcurl could not create a multi handle") }
        self.raw = raw
        self.options = options
        _ = be_curl_multi_setopt_long(raw, CURLMOPT_MAX_TOTAL_CONNECTIONS, options.maximumTotalConnections)
        _ = be_curl_multi_setopt_long(raw, CURLMOPT_MAX_HOST_CONNECTIONS, options.maximumConnectionsPerHost)
    }

    deinit {
        for (handle, _) in active { curl_multi_remove_handle(raw, handle) }
        idle.removeAll()  // their easy handles are cleaned up before the multi handle
        curl_multi_cleanup(raw)
    }

    /// Whether a transfer is in flight.
    var isBusy: Bool { !active.isEmpty }

    /// Starts `request`; when it cannot start, `completion` runs now with the reason. `earlyData` false keeps it
    /// out of TLS early data (the second try after a `425 Too Early`).
    func start(_ request: HTTPRequest, earlyData: Bool = true, completion: @escaping HTTPCompletion) {
        do throws(TransportError) {
            // A handle set up for an equal request first (a host fetching the same placement again), else any.
            let identical = idle.lastIndex(where: { $0.configuredFor?.isByteIdentical(to: request) == true })
            let reused = identical ?? idle.indices.last
            let prepared: PreparedHandle
            if let reused { prepared = idle.remove(at: reused) } else { prepared = try PreparedHandle() }
            let easy = try EasyHandle(on: prepared, isConfigured: identical != nil, request: request, options: options,
                                      earlyData: earlyData, completion: completion)
            let added = curl_multi_add_handle(raw, easy.rawHandle)
            guard added == CURLM_OK else {
                return completion(.failure(.network(String(cString: curl_multi_strerror(added)))))
            }
            active[easy.rawHandle] = easy
        } catch {
            completion(.failure(error))
        }
    }

    /// Takes the work a transport's callers queued (`TransportState.takeWork`): with `cancel`, everything in flight
    /// and every new request completes with `.cancelled`; otherwise the new requests start.
    func take(_ work: (incoming: [(HTTPRequest, HTTPCompletion)], cancel: Bool)) {
        if work.cancel { cancelAll() }
        for (request, completion) in work.incoming {
            if work.cancel { completion(.failure(.cancelled)) } else { start(request, completion: completion) }
        }
    }

    /// Runs the completion of every transfer libcurl reports done, and keeps their handles for reuse.
    func completeFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(raw, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let easy = active.removeValue(forKey: handle) else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(raw, handle)
            if easy.wasTooEarly(code) {
                // The server would not act on it before the handshake: once more, after it, on a handle configured
                // afresh. The caller sees one request and one answer.
                if idle.count < Self.idleHandles { idle.append(easy.prepared) }
                start(easy.request, earlyData: false, completion: easy.completion)
                continue
            }
            easy.completion(easy.outcome(code))
            if idle.count < Self.idleHandles { idle.append(easy.prepared) }
        }
    }

    /// Ends every transfer in flight; each completion runs now with `.cancelled`.
    func cancelAll() {
        let cancelled = active
        active = [:]
        for (handle, easy) in cancelled {
            curl_multi_remove_handle(raw, handle)
            easy.completion(.failure(.cancelled))
        }
    }
}
