"""The evaluation tools' command lines (evaluate, tournament, ladder): flags into a run."""
