/**
 * The load layer: <em>when</em> requests are sent. Facade types: {@link dev.kneepoint.load.ArrivalPlan},
 * {@link dev.kneepoint.load.ClosedLoopStep}, {@link dev.kneepoint.load.OpenLoopStep},
 * {@link dev.kneepoint.load.StepSequence}, {@link dev.kneepoint.load.LoadRun} and
 * {@link dev.kneepoint.load.RunHandle}; the runners behind them are package-private.
 *
 * <p>Shape (after k6 and wrk2): an arrival plan is a pure function from request index to intended
 * offset, and the open-loop executor only fires at {@code stepStart + offset(i)}; it never waits for
 * responses, and a cap either queues (visible in {@code schedule_lag}) or drops (counted as
 * {@code DROPPED}). Closed loop and open loop are two types.
 *
 * <p>Decisions, in one place:
 * <ul>
 *   <li>Request ids are unique within a run, taken in firing order (open loop: plan order), and are the
 *       index passed to {@link dev.kneepoint.request.Workload#next(long)}.</li>
 *   <li>An open-loop step's start (the zero of its plan, reported to {@code stepStarted}) lies 5 ms
 *       after the step begins, so that its scheduler thread is running in time for request 0.</li>
 *   <li>Warm-up: closed loop flags a request {@code warmup} when it is handed to the sender before the
 *       warm-up ends; open loop decides by the planned time. {@code maxRequests} counts measured
 *       (non-warm-up) requests only.</li>
 *   <li>End of a step: no new requests once the bound is reached; requests in flight get the step's
 *       drain timeout (default 30 s; a request-bounded step waits for its last requests the same way), then
 *       are cancelled and end as {@code UNFINISHED}: a failure (the server did not finish them in time), not
 *       the neutral {@code CANCELLED} of a stop. Requests queued at an open loop's cap that were never sent
 *       stay {@code CANCELLED}. The step's window runs from the end of warm-up until it stopped issuing.</li>
 *   <li>Stop or interrupt: in-flight requests are cancelled (a sender that ignores the cancellation gets
 *       its thread interrupted after 0.4 s, and is abandoned after another 0.4 s), open-loop requests
 *       that were due but not yet fired (or still queued at the cap) end as {@code CANCELLED} without a
 *       dispatch, planned requests not yet due are not recorded, and {@code stepFinished} reports
 *       {@code completed = false}.</li>
 * </ul>
 */
package dev.kneepoint.load;
