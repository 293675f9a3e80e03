/** Kneepoint: load-step and analysis functions for LLM servers. */
package dev.kneepoint;
