/// A file of the target's own named like the family its schemas generate (`Demo`): the plugin's output has a name of
/// its own, so the two never produce the same object file.
enum DemoNotes {
    static let family = "Demo"
}
