// Kneepoint JShell startup: the facade and the types a sweep returns.
import dev.kneepoint.*;
import dev.kneepoint.sweep.*;
import dev.kneepoint.request.*;
import dev.kneepoint.metrics.*;
import dev.kneepoint.load.*;
import dev.kneepoint.analysis.*;
import dev.kneepoint.plot.*;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.sim.SimConfig;
import java.time.Duration;
