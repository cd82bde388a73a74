import Testing

@testable import Switchboard
@testable import SwitchboardJSON

@Suite struct HashTrieDiffTests {
    /// Random sets and removals on a trie and on a dictionary; after each batch the diff of the
    /// two snapshots lists exactly the names whose values differ, with both values.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theDiffOfTwoSnapshotsIsExactlyWhatChanged(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        var trie = HashTrie<Int>()
        var model: [String: Int] = [:]
        for batch in 0..<60 {
            await Task.yield()  // lets other suites' tasks run on the cooperative pool meanwhile
            let before = trie
            let modelBefore = model
            // Small batches (a few changes) and, now and then, large ones.
            let changes = batch % 10 == 9 ? 400 : 1 + random.below(6)
            for _ in 0..<changes {
                let name = "c\(random.below(batch < 30 ? 600 : 60))"
                if random.below(3) == 0 {
                    trie.set(name, nil)
                    model[name] = nil
                } else {
                    let value = random.below(4)
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
