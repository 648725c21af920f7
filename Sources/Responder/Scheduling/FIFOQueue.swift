/// A first-in first-out queue with amortised O(1) operations: an array read from a moving head, compacted
/// once the consumed part outweighs the rest, so a queue that never empties does not grow without bound.
struct FIFOQueue<Element> {
    private var elements: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == elements.count }

    /// The element that leaves next.
    var first: Element? { isEmpty ? nil : elements[head] }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }
}
