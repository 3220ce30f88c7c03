import Foundation

/// Creates the to-do list feature: a message handler that turns
/// `.todos(.cmd(…))` messages into use-case requests and their responses into
/// `.todos(.ack(…))` messages sent to `output`. Other messages are ignored.
///
/// - Parameters:
///   - now: The clock that dates new items and alterations.
///   - makeID: Where new items get their ids.
public func createTodoListFeature(
    store: any AppStore,
    now: @escaping @Sendable () -> Date,
    makeID: @escaping @Sendable () -> UUID,
    output: @escaping MessageHandler
) -> MessageHandler {
    let ack: @Sendable (Message.Todos.ACK) -> Void = { output(.todos(.ack($0))) }
    let adder = ItemAdder(store: store, now: now, makeID: makeID) { response in
        switch response {
        case .added(let item): ack(.added(item: item))
        case .failed(let failure): ack(.failed(failure))
        }
    }
    let remover = ItemRemover(store: store) { response in
        switch response {
        case .removed(let items): ack(.removed(items: items))
        case .failed(let failure): ack(.failed(failure))
        }
    }
    let updater = ItemUpdater(store: store, now: now) { response in
        switch response {
        case .updated(let items): ack(.updated(items: items))
        case .failed(let failure): ack(.failed(failure))
        }
    }
    let mover = ItemMover(store: store) { response in
        switch response {
        case .moved(let item, let position): ack(.moved(item: item, to: position))
        case .failed(let failure): ack(.failed(failure))
        }
    }
    let importer = ListImporter(store: store) { response in
        switch response {
        case .imported(let count): ack(.imported(count: count))
        case .failed(let failure): ack(.failed(failure))
        }
    }
    @Sendable func execute(_ command: Message.Todos.CMD) {
        switch command {
        case .add(let item): adder.request(to: .add(item))
        case .create(let draft, let position): adder.request(to: .create(draft, at: position))
        case .insert(let item, let position): adder.request(to: .insert(item, at: position))
        case .remove(let item): remover.request(to: .remove(item))
        case .removeItems(let ids): remover.request(to: .removeItems(ids))
        case .clearFinished: remover.request(to: .clearFinished)
        case .update(let item): updater.request(to: .update(item))
        case .alter(let id, let changes): updater.request(to: .alter(id, changes))
        case .finish(let ids): updater.request(to: .finish(ids))
        case .unfinish(let ids): updater.request(to: .unfinish(ids))
        case .finishAll: updater.request(to: .finishAll)
        case .unfinishAll: updater.request(to: .unfinishAll)
        case .move(let id, let position): mover.request(to: .move(id, to: position))
        case .replaceAll(let items): importer.request(to: .replaceAll(items))
        case .merge(let items): importer.request(to: .merge(items))
        }
    }
    return { message in
        if case .todos(.cmd(let command)) = message { execute(command) }
    }
}
