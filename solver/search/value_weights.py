"""The learned value's weights (solver.search.value), one row per player count: written by
``python -m benchmarks.train_value --games 20000 --seed 1 --every 10 --ridge 0.001``
(benchmarks/value_training.json holds the fit)."""

WEIGHTS_2 = (
    0.684271, 3.000182, -10.755088, -344.530649, 10.815366, -204.477186, -75.696514,
    24.255212, 1.331922, 45.580636, -1.107156, 31.841813, 202.4436, 265.881187
)
WEIGHTS_4 = (
    0.246277, 3.042881, -2.28928, -106.287976, 30.566307, -83.580607, -44.174478,
    53.004836, 14.003833, 4.770103, -2.89981, -16.203934, 115.982567, 136.248724
)
