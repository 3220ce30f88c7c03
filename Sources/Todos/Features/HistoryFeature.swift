import Foundation

/// Creates the history feature: `.history(.cmd(.undo))`, `.redo` and
/// `.jump(to:)` move the store's history and are acknowledged on `output`.
public func createHistoryFeature(store: any AppStore, output: @escaping MessageHandler) -> MessageHandler {
    let navigator = HistoryNavigator(store: store) { response in
        let ack: Message.History.ACK = switch response {
        case .undone(let name): .undone(name: name)
        case .redone(let name): .redone(name: name)
        case .jumped(let position): .jumped(to: position)
        case .nothingToUndo: .nothingToUndo
        case .nothingToRedo: .nothingToRedo
        case .failed(let failure): .failed(failure)
        }
        output(.history(.ack(ack)))
    }
    return { message in
        guard case .history(.cmd(let command)) = message else { return }
        switch command {
        case .undo: navigator.request(to: .undo)
        case .redo: navigator.request(to: .redo)
        case .jump(let position): navigator.request(to: .jump(to: position))
        }
    }
}
