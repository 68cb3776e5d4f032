"""The analysis of finished matches in the browser (docs/analysis.md, "In the browser"): what
a worker process computes (:mod:`.work`), the queue of jobs (:mod:`.jobs`) and its HTTP
endpoints (:mod:`.http`)."""
