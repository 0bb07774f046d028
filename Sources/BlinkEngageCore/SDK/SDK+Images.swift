/// Images: creatives and zone ad images, for hosts without an HTTP stack of their own.
extension SDK {
    /// Fetches the bytes of an image. `completion` runs exactly once on the callback queue; an invalid URL is
    /// reported there too (as `BE_IMAGE_ERROR_INVALID_URL`), like every other failure of the fetch.
    public func fetchImage(url: String, completion: @escaping @Sendable (Result<Image, ServiceError>) -> Void) throws(EngineFailure) {
        try fetchCall { () throws(EngineFailure) in
            let callbacks = self.callbacks
            images.fetch(url) { [logger] result in
                if case .failure(let error) = result, error.domain != .cancelled { logger.info("image fetch failed: \(error.message)") }
                callbacks.enqueue { completion(result) }
            }
        }
    }
}
