#include "cli/compare_inputs.hpp"

#include <fmt/format.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "analysis/conditions.hpp"
#include "analysis/samples.hpp"
#include "ingest/ingest.hpp"
#include "store/run_ref.hpp"

namespace benchguard::cli {

namespace {

std::string short_run(const RunData& r) {
  std::string s = "run " + r.run.uuid.substr(0, 8);
  if (!r.run.git_commit.empty()) s += " @" + r.run.git_commit.substr(0, 10);
  return s;
}

// Compared runs are read by column: analysis needs no record per instance or iteration.
constexpr store::LoadOptions kForAnalysis{.columns = true, .instance_table = true};

// A regular file that is not a database: a result file of some harness.
bool is_result_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && !store::is_database_file(path);
}

// Result files imported in memory and merged into one run: variants of the same benchmark and
// name from several files pool their instances (renumbered, in file order). Each file's
// artifacts go to `artifacts` when given.
Result<RunData> import_files(const std::vector<std::string>& files, const std::string& format,
                             std::vector<std::string>& warnings,
                             std::vector<KeyValues>* artifacts = nullptr) {
  RunData merged;
  merged.run.status = "imported";
  int64_t order_offset = 0;
  for (const auto& file : files) {
    BG_ASSIGN(ingest::Imported imp, ingest::import_file(file, format));
    for (const auto& w : imp.warnings) warnings.emplace_back(file).append(": ").append(w);
    if (artifacts != nullptr) artifacts->push_back(imp.data.run.artifacts);
    if (merged.run.suite.empty()) merged.run = imp.data.run;
    int64_t next_offset = order_offset;
    for (auto& v : imp.data.variants) {
      auto same = std::find_if(merged.variants.begin(), merged.variants.end(), [&](const auto& x) {
        return x.variant.benchmark == v.variant.benchmark && x.variant.name == v.variant.name;
      });
      if (same == merged.variants.end()) {
        merged.variants.push_back(VariantData{v.variant, {}, {}, v.metrics, {}});
        same = merged.variants.end() - 1;
      }
      // The units and directions of the file's own metrics, as the store would hold them.
      for (const auto& m : imp.metrics)
        if (std::none_of(same->metrics.begin(), same->metrics.end(),
                         [&](const MetricInfo& x) { return x.name == m.name; }))
          same->metrics.push_back(m);
      for (auto& inst : v.instances) {
        inst.index = static_cast<int>(same->instances.size());
        inst.order += order_offset;
        next_offset = std::max(next_offset, inst.order + 1);
        same->instances.push_back(std::move(inst));
      }
    }
    order_offset = next_offset;
  }
  merged.run.uuid.clear();
  return merged;
}

// Every run labelled `label` (KEY=VALUE), oldest first, merged into one: variants of the same
// benchmark and name pool their instances (renumbered, in run order). Each run's artifacts go
// to `artifacts`; `count` is how many runs there were.
Result<RunData> pooled_runs(store::Store& store, const std::string& label,
                            std::vector<KeyValues>& artifacts, std::size_t& count) {
  const auto eq = label.find('=');
  if (eq == std::string::npos || eq == 0)
    return Error{fmt::format("--pool pools the runs of a label: give KEY=VALUE, not '{}'", label)};
  const std::string key = label.substr(0, eq), value = label.substr(eq + 1);
  BG_ASSIGN(auto runs, store.list_runs(store::ListOptions{.counts = false}));
  std::reverse(runs.begin(), runs.end());  // oldest first
  RunData merged;
  count = 0;
  int64_t order_offset = 0;
  for (const auto& summary : runs) {
    const std::string* v = find_value(summary.labels, key);
    if (v == nullptr || *v != value) continue;
    BG_ASSIGN(RunData run, store.load_run(summary.uuid));
    artifacts.push_back(run.run.artifacts);
    if (count++ == 0) merged.run = run.run;
    int64_t next_offset = order_offset;
    for (auto& var : run.variants) {
      auto same = std::find_if(merged.variants.begin(), merged.variants.end(), [&](const auto& x) {
        return x.variant.benchmark == var.variant.benchmark && x.variant.name == var.variant.name;
      });
      if (same == merged.variants.end()) {
        merged.variants.push_back(VariantData{var.variant, {}, {}, var.metrics, {}});
        same = merged.variants.end() - 1;
      }
      for (auto& inst : var.instances) {
        inst.index = static_cast<int>(same->instances.size());
        inst.order += order_offset;
        next_offset = std::max(next_offset, inst.order + 1);
        same->instances.push_back(std::move(inst));
      }
    }
    order_offset = next_offset;
  }
  if (count == 0) return Error{fmt::format("no run has the label {}", label)};
  merged.run.uuid.clear();
  return merged;
}

std::string join_names(const std::vector<std::string>& files) {
  std::string s;
  for (const auto& f : files) s += (s.empty() ? "" : " + ") + f;
  return s;
}

// A run's conditions with the memory layout of the side's variants (a layout fixed on one
// side and randomized on the other is a difference in conditions, as a governor would be).
KeyValues with_layouts(KeyValues artifacts, const analysis::Side& side) {
  std::vector<std::string> layouts;
  for (const auto* v : side.variants) {
    const std::string l = analysis::layout_of(*v);
    if (std::find(layouts.begin(), layouts.end(), l) == layouts.end()) layouts.push_back(l);
  }
  for (const auto& l : layouts) artifacts.emplace_back("layout", l);
  return artifacts;
}

// The sides of two runs (or result files): analysis::run_sides.
void two_sides(CompareInputs& in, const RunData& ra, const RunData& rb,
               const CompareRequest& request, const std::string& label_a,
               const std::string& label_b) {
  auto sides = analysis::run_sides(ra, rb, label_a, label_b, request.variant_a, request.variant_b);
  in.a = std::move(sides.a);
  in.b = std::move(sides.b);
  in.by_variant = sides.by_variant;
  in.notes = std::move(sides.notes);
}

}  // namespace

Result<store::Store*> LazyStore::get() {
  if (!store_) {
    BG_ASSIGN(store_, ctx_.open_store_read_only());
  }
  return store_.get();
}

Result<CompareInputs> resolve_compare_inputs(const Context& ctx, LazyStore& lazy,
                                             const CompareRequest& request,
                                             std::vector<std::string>& warnings) {
  CompareInputs in;
  const auto& refs = request.refs;
  const std::string& variant_a = request.variant_a;
  const std::string& variant_b = request.variant_b;

  // Variants of one run: no reference, one run, or two variant names of the latest run.
  auto one_run_variants = [&](RunData run, std::string va, std::string vb,
                              const std::string& where) -> Result<CompareInputs> {
    const auto names = analysis::variant_names(run);
    if (va.empty() && vb.empty()) {
      if (names.size() < 2)
        return Error{
            fmt::format("{} has one variant; name two runs, labels, commits or result "
                        "files to compare",
                        where)};
      va = names[0];
      vb = names[1];
    }
    for (const auto& n : {va, vb})
      if (std::find(names.begin(), names.end(), n) == names.end())
        return Error{fmt::format("{} has no variant '{}'", where, n)};
    in.runs.push_back(std::make_unique<RunData>(std::move(run)));
    const RunData& r = *in.runs.back();
    in.a = analysis::variant_side(r, va, va);
    in.b = analysis::variant_side(r, vb, vb);
    in.description = fmt::format("{} vs {} in {}", va, vb, where);
    const auto pa = analysis::packages_of(r.run.artifacts, va);
    const auto pb = analysis::packages_of(r.run.artifacts, vb);
    if (pa && pb) in.packages_note = analysis::packages_note(*pa, *pb);
    if (names.size() >= 2 && va == names[0] && vb == names[1]) {
      BG_ASSIGN(in.sequential, analysis::read_sequential_record(r.run));
    }
    return std::move(in);
  };

  // `FILE... vs FILE...`: several result files a side.
  const auto vs = std::find(refs.begin(), refs.end(), "vs");
  if (vs != refs.end()) {
    const std::vector<std::string> files_a(refs.begin(), vs), files_b(vs + 1, refs.end());
    if (files_a.empty() || files_b.empty())
      return Error{"compare FILE... vs FILE...: name at least one result file on each side"};
    for (const auto* side : {&files_a, &files_b})
      for (const auto& f : *side)
        if (!is_result_file(f))
          return Error{
              fmt::format("{}: no such result file (on either side of 'vs' only result "
                          "files of importable formats may stand)",
                          f)};
    BG_ASSIGN(RunData ra, import_files(files_a, request.input_format, warnings, &in.conditions_a));
    BG_ASSIGN(RunData rb, import_files(files_b, request.input_format, warnings, &in.conditions_b));
    in.runs.push_back(std::make_unique<RunData>(std::move(ra)));
    in.runs.push_back(std::make_unique<RunData>(std::move(rb)));
    two_sides(in, *in.runs[0], *in.runs[1], request, join_names(files_a), join_names(files_b));
    in.description = fmt::format("{} vs {}", join_names(files_a), join_names(files_b));
    return in;
  }
  if (refs.size() > 2)
    return Error{"compare takes at most two references, or result files as FILE... vs FILE..."};
  if (request.pool) {
    if (refs.size() != 2) return Error{"--pool compares two labels: KEY=VALUE KEY=VALUE"};
    BG_ASSIGN(store::Store * store, lazy.get());
    std::size_t na = 0, nb = 0;
    BG_ASSIGN(RunData ra, pooled_runs(*store, refs[0], in.conditions_a, na));
    BG_ASSIGN(RunData rb, pooled_runs(*store, refs[1], in.conditions_b, nb));
    in.runs.push_back(std::make_unique<RunData>(std::move(ra)));
    in.runs.push_back(std::make_unique<RunData>(std::move(rb)));
    two_sides(in, *in.runs[0], *in.runs[1], request, refs[0], refs[1]);
    in.description = fmt::format("{} ({} run{}) vs {} ({} run{}), pooled", refs[0], na,
                                 na == 1 ? "" : "s", refs[1], nb, nb == 1 ? "" : "s");
    return in;
  }

  // A reference: result files are imported, anything else is looked up in the store.
  auto side_run_from = [&](LazyStore& from, const std::string& ref, std::string& where,
                           std::vector<std::string>& warned) -> Result<RunData> {
    if (is_result_file(ref)) {
      where = ref;
      return import_files({ref}, request.input_format, warned);
    }
    BG_ASSIGN(store::Store * store, from.get());
    BG_ASSIGN(RunData run, ctx.resolve_run(*store, ref, kForAnalysis));
    where = short_run(run);
    return run;
  };
  auto side_run = [&](const std::string& ref, std::string& where) {
    return side_run_from(lazy, ref, where, warnings);
  };

  if (refs.empty()) {
    BG_ASSIGN(store::Store * store, lazy.get());
    BG_ASSIGN(RunData run, store->load_run("latest", kForAnalysis));
    const std::string where = short_run(run);
    return one_run_variants(std::move(run), variant_a, variant_b, where);
  }
  if (refs.size() == 1) {
    std::string where;
    BG_ASSIGN(RunData run, side_run(refs[0], where));
    return one_run_variants(std::move(run), variant_a, variant_b, where);
  }
  if (!is_result_file(refs[0]) && !is_result_file(refs[1])) {
    BG_ASSIGN(store::Store * store, lazy.get());
    if (auto latest = store->load_run("latest", kForAnalysis); latest.ok()) {
      const auto names = analysis::variant_names(*latest);
      auto has = [&](const std::string& n) {
        return std::find(names.begin(), names.end(), n) != names.end();
      };
      if (has(refs[0]) && has(refs[1])) {
        const std::string where = short_run(*latest);
        return one_run_variants(std::move(*latest), refs[0], refs[1], where);
      }
    }
  }
  // Both sides at once, B through a connection of its own: building every iteration's record
  // is most of what comparing long runs costs before the analysis.
  std::string where_a, where_b;
  std::vector<std::string> warned_b;
  LazyStore lazy_b(ctx);
  std::optional<Result<RunData>> read_a, read_b;
  tbb::parallel_invoke([&] { read_a.emplace(side_run(refs[0], where_a)); },
                       [&] { read_b.emplace(side_run_from(lazy_b, refs[1], where_b, warned_b)); });
  warnings.insert(warnings.end(), warned_b.begin(), warned_b.end());
  BG_ASSIGN(RunData ra, std::move(*read_a));
  BG_ASSIGN(RunData rb, std::move(*read_b));
  in.runs.push_back(std::make_unique<RunData>(std::move(ra)));
  in.runs.push_back(std::make_unique<RunData>(std::move(rb)));
  two_sides(in, *in.runs[0], *in.runs[1], request, refs[0], refs[1]);
  in.conditions_a = {with_layouts(in.runs[0]->run.artifacts, in.a)};
  in.conditions_b = {with_layouts(in.runs[1]->run.artifacts, in.b)};
  const auto first_variant = [](const analysis::Side& s) {
    return s.variants.empty() ? std::string() : s.variants.front()->variant.name;
  };
  const auto pa = analysis::packages_of(in.runs[0]->run.artifacts, first_variant(in.a));
  const auto pb = analysis::packages_of(in.runs[1]->run.artifacts, first_variant(in.b));
  if (pa && pb) in.packages_note = analysis::packages_note(*pa, *pb);
  auto named = [](const std::string& ref, const std::string& where) {
    return ref == where ? ref : fmt::format("{} ({})", ref, where);
  };
  in.description = fmt::format("{} vs {}", named(refs[0], where_a), named(refs[1], where_b));
  return in;
}

}  // namespace benchguard::cli
