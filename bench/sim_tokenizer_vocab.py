"""The simulator's 64-word output vocabulary (lib/.../sim/Sse.java VOCAB), one token per word."""
VOCAB = ("alpha beta gamma delta zeta theta iota kappa lambda sigma omega river stone cloud "
         "light green amber north south east west maple cedar birch pine oak lake hill field ocean wind rain snow "
         "storm quiet swift calm bright dark gold silver iron copper paper glass water fire earth metal wood sun "
         "moon star comet orbit pixel token batch queue cache block range spark ember").split(" ")
assert len(VOCAB) == 64
