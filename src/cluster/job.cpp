#include "cluster/job.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/json_error.hpp"
#include "core/suite.hpp"
#include "store/location.hpp"

namespace benchguard::cluster {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "benchguard-slurm-job";
constexpr int kVersion = 1;

json units_json(const std::vector<Unit>& units) {
  json a = json::array();
  for (const auto& u : units) a.push_back({u.benchmark, u.variant, u.instance, u.task});
  return a;
}

std::vector<Unit> units_from(const json& a) {
  std::vector<Unit> out;
  for (const auto& u : a)
    out.push_back({u.at(0).get<int>(), u.at(1).get<int>(), u.at(2).get<int>(), u.at(3).get<int>()});
  return out;
}

}  // namespace

bool tasks_can_store(const std::string& location) {
  return store::is_postgres_url(location);
}

Result<Job> load_job(const std::string& dir) {
  const fs::path file = fs::path(dir) / "job.json";
  std::ifstream in(file);
  if (!in)
    return Error{dir + " is not a job folder (no job.json); give the folder `submit` printed"};
  std::ostringstream text;
  text << in.rdbuf();
  Job job;
  try {
    const json j = json::parse(text.str());
    if (j.value("format", "") != kFormat || j.value("version", 0) != kVersion)
      return Error{file.string() + ": not a job manifest of this benchguard (format " + kFormat +
                   " version " + std::to_string(kVersion) + ")"};
    std::error_code ec;
    job.dir = fs::absolute(dir, ec).lexically_normal().string();
    job.uuid = j.at("uuid").get<std::string>();
    job.seed = j.at("seed").get<uint64_t>();
    job.schedule = j.at("schedule").get<std::string>();
    job.suite_path = j.at("suite_path").get<std::string>();
    job.suite_text = j.at("suite_text").get<std::string>();
    job.plan_path = j.at("plan_path").get<std::string>();
    job.plan_text = j.at("plan_text").get<std::string>();
    job.instances = j.at("instances").get<int>();
    job.iterations = j.at("iterations").get<int>();
    for (const auto& kv : j.at("labels")) job.labels.emplace_back(kv.at(0), kv.at(1));
    job.binary = j.at("binary").get<std::string>();
    job.db = j.at("db").get<std::string>();
    job.partition = j.at("partition").get<std::string>();
    job.sbatch_args = j.at("sbatch_args").get<std::vector<std::string>>();
    job.units = units_from(j.at("units"));
    for (const auto& a : j.at("attempts"))
      job.attempts.push_back({a.at("number").get<int>(), a.at("slurm_job").get<std::string>(),
                              a.at("tasks").get<int>(), units_from(a.at("units"))});
  } catch (const json::exception& e) {
    const JsonError why = json_error(e, text.str());
    return Error::at(file.string(), why.line, why.reason + " (a job.json written by hand?)");
  }
  return job;
}

Status save_job(const Job& job) {
  json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["uuid"] = job.uuid;
  j["seed"] = job.seed;
  j["schedule"] = job.schedule;
  j["suite_path"] = job.suite_path;
  j["suite_text"] = job.suite_text;
  j["plan_path"] = job.plan_path;
  j["plan_text"] = job.plan_text;
  j["instances"] = job.instances;
  j["iterations"] = job.iterations;
  j["labels"] = json::array();
  for (const auto& [k, v] : job.labels) j["labels"].push_back({k, v});
  j["binary"] = job.binary;
  j["db"] = job.db;
  j["partition"] = job.partition;
  j["sbatch_args"] = job.sbatch_args;
  j["units"] = units_json(job.units);
  j["attempts"] = json::array();
  for (const auto& a : job.attempts)
    j["attempts"].push_back({{"number", a.number},
                             {"slurm_job", a.slurm_job},
                             {"tasks", a.tasks},
                             {"units", units_json(a.units)}});
  return write_file_atomically((fs::path(job.dir) / "job.json").string(), json_text(j, 1) + "\n");
}

Result<Suite> job_suite(const Job& job) {
  BG_ASSIGN(Suite suite, parse_suite(job.suite_text, job.suite_path));
  if (!job.plan_path.empty()) {
    BG_ASSIGN(const Plan plan, parse_plan(job.plan_text, job.plan_path));
    apply_plan(plan, suite);
  }
  for (auto& b : suite.benchmarks) {
    if (job.instances > 0) b.instances = job.instances;
    if (job.iterations > 0) b.iterations = job.iterations;
  }
  suite.schedule = job.schedule;
  return sharded_suite(suite, job.schedule);
}

Result<const Attempt*> find_task(const Job& job, int attempt, int task) {
  for (const auto& a : job.attempts) {
    if (a.number != attempt) continue;
    if (task < 0 || task >= a.tasks)
      return Error{"attempt " + std::to_string(attempt) + " of " + job.dir + " has tasks 0 to " +
                   std::to_string(a.tasks - 1) + ", not " + std::to_string(task)};
    return &a;
  }
  return Error{job.dir + " has no attempt " + std::to_string(attempt)};
}

std::string attempt_dir(const Job& job, int attempt) {
  return (fs::path(job.dir) / ("attempt-" + std::to_string(attempt))).string();
}

std::string task_db(const Job& job, int attempt, int task) {
  return attempt_dir(job, attempt) + "/task-" + std::to_string(task) + ".db";
}

std::string task_exit_file(const Job& job, int attempt, int task) {
  return attempt_dir(job, attempt) + "/task-" + std::to_string(task) + ".exit";
}

std::string unit_name(const Suite& suite, const Unit& unit) {
  if (unit.benchmark < 0 || unit.benchmark >= static_cast<int>(suite.benchmarks.size())) return "?";
  const auto& b = suite.benchmarks[static_cast<size_t>(unit.benchmark)];
  if (unit.variant < 0 || unit.variant >= static_cast<int>(b.variants.size())) return b.name;
  return b.name + "/" + b.variants[static_cast<size_t>(unit.variant)].name + "#" +
         std::to_string(unit.instance);
}

}  // namespace benchguard::cluster
