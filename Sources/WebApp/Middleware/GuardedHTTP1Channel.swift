import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 connection with two guards in front of it:
///
/// - ``RequestHeadTimer``: a connection that does not send a complete request
///   head within the head timeout (from when it opens, or from the first byte
///   of its next request) is closed, so a client that trickles a head byte by
///   byte (slowloris) holds no connection for long; so is one that does not
///   send the whole body within three times that after its head (a body is
///   at most 64 KiB). Idle keep-alive
///   connections are closed by Hummingbird's idle timeout, which never counts
///   while a response (an event stream) is in progress.
/// - ``RequestTargetHostHandler``: an absolute-form request target
///   (`GET http://host/path`) names the host the request is for, so it
///   replaces the `Host` header and then passes the same check as any `Host`.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let requestHeadTimeout: TimeAmount

    /// A connection that answers with `responder`, closed after
    /// `requestHeadTimeout` without a complete request head and after
    /// `idleTimeout` idle between requests.
    init(responder: @escaping HTTPChannelHandler.Responder, requestHeadTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.base = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout))
        self.requestHeadTimeout = requestHeadTimeout
    }

    /// `seconds` as a NIO time amount, kept between 1 ms and a year (NaN is
    /// 1 ms), so that no configured value can overflow.
    static func timeAmount(seconds: Double) -> TimeAmount {
        let clamped = seconds.isNaN ? 0.001 : min(max(seconds, 0.001), 365 * 86_400)
        return .nanoseconds(Int64(clamped * 1_000_000_000))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let requestHeadTimeout = self.requestHeadTimeout
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let codec = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
            let timer = RequestHeadTimer(timeout: requestHeadTimeout, logger: logger)
            try operations.addHandler(timer, position: .first)
            try operations.addHandler(RequestTargetHostHandler(), position: .before(codec))
            try operations.addHandler(RequestHeadWatcher(timer: timer), position: .after(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes the connection when a request head takes longer than the timeout:
/// it sees the raw bytes, so it knows when a request starts, and
/// ``RequestHeadWatcher`` (after the HTTP decoder) tells it when a head is
/// complete and when the answer is written.
final class RequestHeadTimer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    /// When the body of the request whose head arrived must have arrived.
    private var bodyDeadline: Scheduled<Void>?
    private var requestsInProgress = 0
    private var context: ChannelHandlerContext?

    init(timeout: TimeAmount, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        bodyArrived()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        bodyArrived()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The first byte of a request while no request is in progress starts
        // the clock; bytes of a body or of a pipelined request do not.
        if requestsInProgress == 0 { arm(context) }
        context.fireChannelRead(data)
    }

    /// A complete request head arrived: the clock of the head stops, and
    /// that of its body starts.
    func headArrived() {
        requestsInProgress += 1
        disarm()
        guard let context, bodyDeadline == nil else { return }
        let logger = self.logger
        bodyDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout * 3) { [weak self] in
            self?.bodyDeadline = nil
            logger.debug("closing a connection that sent no complete request body in time")
            self?.context?.close(promise: nil)
        }
    }

    /// The whole request arrived (its body too, or it has none).
    func bodyArrived() {
        bodyDeadline?.cancel()
        bodyDeadline = nil
    }

    /// The answer to a request is written.
    func responseEnded() {
        requestsInProgress = max(0, requestsInProgress - 1)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let logger = self.logger
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
            self?.deadline = nil
            logger.debug("closing a connection that sent no complete request head in time")
            self?.context?.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestHeadTimer: Sendable {}

/// Tells ``RequestHeadTimer`` when a request head is complete, when the
/// whole request arrived, and when its answer is written.
final class RequestHeadWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timer: RequestHeadTimer

    init(timer: RequestHeadTimer) {
        self.timer = timer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: timer.headArrived()
        case .end: timer.bodyArrived()
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { timer.responseEnded() }
        context.write(data, promise: promise)
    }
}

@available(*, unavailable)
extension RequestHeadWatcher: Sendable {}

/// Makes the host of an absolute-form request target the request's `Host`
/// (RFC 9112 §3.2.2), so that `GET http://evil.example/ HTTP/1.1` is
/// checked, and refused, as `Host: evil.example` is. A target of another
/// scheme, or without a host, leaves an empty `Host`, which no check accepts.
final class RequestTargetHostHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), let host = Self.host(ofTarget: head.uri) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Host", value: host)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The authority of an absolute-form `target`, `""` when it is absolute
    /// but names no usable host, or `nil` for origin form (`/path`) and `*`.
    static func host(ofTarget target: String) -> String? {
        if target.hasPrefix("/") || target == "*" { return nil }
        let scheme = "http://"
        guard target.lowercased().hasPrefix(scheme) else { return "" }
        let rest = target.dropFirst(scheme.count)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<end]
        // Userinfo (`user@host`) is not allowed in an HTTP target.
        return authority.contains("@") ? "" : String(authority)
    }
}

@available(*, unavailable)
extension RequestTargetHostHandler: Sendable {}
