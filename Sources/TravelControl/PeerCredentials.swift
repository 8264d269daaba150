#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who is on the other end of a Unix socket, as the kernel vouches for it at connect time
/// (`SO_PEERCRED`, `SO_PEERGROUPS`): nothing the client says about itself is believed.
package struct PeerCredentials: Sendable, Hashable {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32
    /// The peer's supplementary groups; empty when the kernel cannot tell (before Linux 4.13).
    package var groups: [UInt32]

    package init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// The credentials of the peer of a connected socket; `nil` if the kernel refuses.
    package init?(socket fd: Int32) {
        var credentials = KernelCredentials()
        var length = socklen_t(MemoryLayout<KernelCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        self.init(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        groups = Self.supplementaryGroups(of: fd)
    }

    /// Whether the peer is root or has `group` as its primary or a supplementary group.
    package func isRootOrMember(of group: UInt32?) -> Bool {
        if uid == 0 { return true }
        guard let group else { return false }
        return gid == group || groups.contains(group)
    }

    private static func supplementaryGroups(of fd: Int32) -> [UInt32] {
        // SO_PEERGROUPS (Linux 4.13); not every C library names it.
        let peerGroups: Int32 = 59
        var groups = [gid_t](repeating: 0, count: 64)
        var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
        if getsockopt(fd, SOL_SOCKET, peerGroups, &groups, &length) != 0 {
            guard errno == ERANGE else { return [] }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size)
            guard getsockopt(fd, SOL_SOCKET, peerGroups, &groups, &length) == 0 else { return [] }
        }
        return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size))
    }
}

/// `struct ucred`, which the C library declares only under `_GNU_SOURCE`.
private struct KernelCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
