"""The shipping tools' command lines (export, average, ship): flags into a run."""
