import Foundation

/// Creates the history feature: `.history(.cmd(.undo))`, `.redo` and
/// `.jump(to:)` move the store's history and are acknowledged on `output`.
public func createHistoryFeature(store: any AppStore, output: @escaping MessageHandler) -> MessageHandler {
    let navigator = HistoryNavigator(store: store) { response in output(.history(.ack(response))) }
    return { message in
        if case .history(.cmd(let command)) = message { navigator.request(to: command) }
    }
}
