/// A zone with the name it is stored under: what `zone add` and `zone import` send the store.
public struct NamedZone: Sendable, Hashable {
    public var name: String
    public var role: String?
    public var shape: ZoneShape

    public init(name: String, role: String?, shape: ZoneShape) {
        self.name = name
        self.role = role
        self.shape = shape
    }
}
