"""bleuprint.compat: each compat module against its real upstream (sacrebleu, jiwer,
torchmetrics, nltk, evaluate, nlg-metricverse, Moses, mteval), and the upstreams' own test
suites run on the compat modules."""
