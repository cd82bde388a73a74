import Switchboard

extension RouterOptions {
    /// A minute's default deadline, for tests whose replies come from another thread or task: a
    /// loaded test run can keep a responder's task, or Dispatch's global threads, waiting for a
    /// thread longer than the default deadline.
    public static var patient: RouterOptions { RouterOptions(defaultDeadline: .seconds(60)) }
}
