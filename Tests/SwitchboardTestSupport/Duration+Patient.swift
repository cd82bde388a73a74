extension Duration {
    /// A minute: the reply deadline for tests whose replies come from another thread or task
    /// (`Router(options: .init(defaultDeadline: .patient))`), since a loaded test run can keep a
    /// responder's task, or Dispatch's global threads, waiting for a thread longer than the
    /// default deadline.
    public static var patient: Duration { .seconds(60) }
}
