package dev.kneepoint.kernel;

/**
 * The real object a cell's last expression produced (not JShell's string rendering of it).
 *
 * @param value the object, possibly null
 */
public record CellValue(Object value) {}
