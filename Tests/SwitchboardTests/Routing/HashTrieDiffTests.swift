import Testing

@testable import Switchboard
@testable import SwitchboardJSON

@Suite struct HashTrieDiffTests {
    /// A deterministic generator (SplitMix64), so a failure can be replayed.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z &>> 31)) % UInt64(bound))
        }
    }

    /// Random sets and removals on a trie and on a dictionary; after each batch the diff of the
    /// two snapshots lists exactly the names whose values differ, with both values.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theDiffOfTwoSnapshotsIsExactlyWhatChanged(seed: UInt64) async {
        var random = Generator(state: seed)
        var trie = HashTrie<Int>()
        var model: [String: Int] = [:]
        for batch in 0..<60 {
            await Task.yield()  // lets other suites' tasks run on the cooperative pool meanwhile
            let before = trie
            let modelBefore = model
            // Small batches (a few changes) and, now and then, large ones.
            let changes = batch % 10 == 9 ? 400 : 1 + random.next(6)
            for _ in 0..<changes {
                let name = "c\(random.next(batch < 30 ? 600 : 60))"
                if random.next(3) == 0 {
                    trie.set(name, nil)
                    model[name] = nil
                } else {
                    let value = random.next(4)
                    trie.set(name, value)
                    model[name] = value
                }
            }
            var seen: [String: (Int?, Int?)] = [:]
            HashTrie.diff(from: before, to: trie, same: ==) { name, old, new in
                #expect(seen[name] == nil, "seed \(seed) batch \(batch): \(name) told twice")
                seen[name] = (old, new)
                return true
            }
            let names = Set(modelBefore.keys).union(model.keys).filter { modelBefore[$0] != model[$0] }
            #expect(Set(seen.keys) == names, "seed \(seed) batch \(batch)")
            for (name, (old, new)) in seen {
                #expect(old == modelBefore[name] && new == model[name], "seed \(seed) batch \(batch): \(name)")
            }
            #expect(trie.count == model.count, "seed \(seed) batch \(batch)")
        }
    }

    @Test func theDiffStopsWhenTold() {
        var trie = HashTrie<Int>()
        let empty = trie
        for index in 0..<100 { trie.set("c\(index)", index) }
        var calls = 0
        let finished = HashTrie.diff(from: empty, to: trie, same: ==) { _, _, _ in
            calls += 1
            return calls < 3
        }
        #expect(!finished)
        #expect(calls == 3)
    }

    @Test func canonicallyEquivalentNamesAreOneNameInTheDiff() {
        // "café" precomposed and decomposed: one name (as `Channel` compares them), changed once.
        var trie = HashTrie<Int>()
        trie.set("caf\u{E9}", 1)
        let before = trie
        trie.set("cafe\u{301}", 2)
        var told: [(String, Int?, Int?)] = []
        HashTrie.diff(from: before, to: trie, same: ==) { name, old, new in
            told.append((name, old, new))
            return true
        }
        #expect(told.count == 1)
        #expect(told.first?.1 == 1 && told.first?.2 == 2)
    }
}
