#include "stats/simulate.hpp"

#include <vector>

#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

// Lognormal with mean 1: exp(N(-sigma^2 / 2, sigma^2)).
double unit_lognormal(Rng& rng, double sigma) {
  return sigma > 0.0 ? rng.lognormal(-sigma * sigma / 2.0, sigma) : 1.0;
}

}  // namespace

Hierarchical simulate(const SimulationOptions& options, uint64_t seed, uint64_t stream) {
  Rng rng(seed, stream);
  Hierarchical data;
  const std::size_t total = options.warmup_iterations + options.iterations;
  std::vector<double> values(total);
  const double scale = options.mean * options.slowdown;
  for (std::size_t i = 0; i < options.instances; ++i) {
    const double offset = unit_lognormal(rng, options.instance_sd);
    for (std::size_t j = 0; j < total; ++j) {
      double v = scale * offset * unit_lognormal(rng, options.iteration_sd);
      if (options.outlier_probability > 0.0 && rng.uniform() < options.outlier_probability) {
        const auto& factors = options.outlier_factors;
        v *= factors.empty() ? options.outlier_factor
                             : factors[rng.below(static_cast<uint32_t>(factors.size()))];
      }
      if (j < options.warmup_iterations) {
        const double remaining = static_cast<double>(options.warmup_iterations - j) /
                                 static_cast<double>(options.warmup_iterations);
        v *= 1.0 + (options.warmup_factor - 1.0) * remaining;
      }
      values[j] = v;
    }
    data.add_instance(values);
  }
  return data;
}

double expected_iteration(const SimulationOptions& options) {
  double factor = options.outlier_factor;
  if (!options.outlier_factors.empty()) {
    factor = 0.0;
    for (double f : options.outlier_factors) factor += f;
    factor /= static_cast<double>(options.outlier_factors.size());
  }
  return options.mean * options.slowdown * (1.0 + options.outlier_probability * (factor - 1.0));
}

}  // namespace benchguard::stats
