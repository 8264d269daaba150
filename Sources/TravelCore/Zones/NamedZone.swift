/// A zone with the name it is stored under: what `zone add` and `zone import` send the store.
package struct NamedZone: Sendable, Hashable {
    package var name: String
    package var role: String?
    package var shape: ZoneShape

    package init(name: String, role: String?, shape: ZoneShape) {
        self.name = name
        self.role = role
        self.shape = shape
    }
}
