// StringPool: interning, ids, stability of views, lookup, growth, long strings.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "store/string_pool.h"

using namespace sollens;

TEST_CASE("a new pool holds only the empty string, as id 0", "[store][string_pool]") {
  StringPool pool;
  CHECK(pool.size() == 1);
  CHECK(kEmptyStr == 0);
  CHECK(pool.view(kEmptyStr).empty());
  auto found = pool.find("");
  REQUIRE(found.has_value());
  CHECK(*found == kEmptyStr);
  // Interning "" in either form gives id 0 and adds nothing.
  CHECK(pool.intern("") == kEmptyStr);
  CHECK(pool.intern_stable(std::string_view()) == kEmptyStr);
  CHECK(pool.intern(std::string()) == kEmptyStr);
  CHECK(pool.size() == 1);
}

TEST_CASE("equal strings get equal ids, distinct strings distinct ids", "[store][string_pool]") {
  StringPool pool;
  // Two separate buffers with the same bytes.
  std::string first = "aten::mm";
  std::string second = "aten::mm";
  REQUIRE(first.data() != second.data());

  const StrId mm = pool.intern(first);
  CHECK(mm != kEmptyStr);
  CHECK(pool.intern(second) == mm);
  CHECK(pool.intern_stable(first) == mm);  // stable and copied forms share ids
  CHECK(pool.size() == 2);

  const StrId mul = pool.intern("aten::mul");
  const StrId prefix = pool.intern("aten::m");
  const StrId upper = pool.intern("ATEN::MM");
  const StrId longer = pool.intern("aten::mm ");
  std::vector<StrId> ids = {kEmptyStr, mm, mul, prefix, upper, longer};
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());  // all distinct
  CHECK(pool.size() == 6);

  CHECK(pool.view(mm) == "aten::mm");
  CHECK(pool.view(mul) == "aten::mul");
  CHECK(pool.view(prefix) == "aten::m");
  CHECK(pool.view(upper) == "ATEN::MM");
  CHECK(pool.view(longer) == "aten::mm ");
  for (StrId id : ids) CHECK(id < pool.size());
}

TEST_CASE("strings differing only in embedded or trailing NUL bytes are distinct",
          "[store][string_pool]") {
  StringPool pool;
  const StrId a = pool.intern(std::string_view("a", 1));
  const StrId a0 = pool.intern(std::string_view("a\0", 2));
  const StrId a0b = pool.intern(std::string_view("a\0b", 3));
  const StrId nul = pool.intern(std::string_view("\0", 1));
  CHECK(a != a0);
  CHECK(a0 != a0b);
  CHECK(a != a0b);
  CHECK(nul != kEmptyStr);
  CHECK(pool.view(a0).size() == 2);
  CHECK(pool.view(a0b) == std::string_view("a\0b", 3));
  CHECK(pool.view(nul) == std::string_view("\0", 1));
}

TEST_CASE("intern copies: the view outlives and ignores the source string",
          "[store][string_pool]") {
  StringPool pool;
  StrId id;
  {
    std::string temp = "cudaLaunchKernel";
    id = pool.intern(temp);
    temp.assign(temp.size(), 'X');  // the pool must not see this change
  }
  CHECK(pool.view(id) == "cudaLaunchKernel");
  // Short strings too (SSO buffers are the easiest to get wrong).
  StrId small_id;
  {
    std::string s = "ab";
    small_id = pool.intern(s);
    s[0] = 'z';
  }
  CHECK(pool.view(small_id) == "ab");
}

TEST_CASE("views stay valid (same memory) while the pool grows", "[store][string_pool]") {
  StringPool pool;
  const StrId id = pool.intern(std::string("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
  const StrId small_id = pool.intern(std::string("k"));
  const std::string_view before = pool.view(id);
  const std::string_view small_before = pool.view(small_id);
  for (int i = 0; i < 20000; ++i) pool.intern("filler_" + std::to_string(i));
  CHECK(pool.view(id).data() == before.data());
  CHECK(pool.view(small_id).data() == small_before.data());
  // Reading through the old views: ASan reports it if their memory moved or was freed.
  CHECK(std::string(before) == "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  CHECK(std::string(small_before) == "k");
}

TEST_CASE("intern_stable references the caller's memory without copying",
          "[store][string_pool]") {
  const std::string owner = "hello world, hello";
  StringPool pool;
  const StrId hello = pool.intern_stable(std::string_view(owner).substr(0, 5));
  CHECK(pool.view(hello) == "hello");
  CHECK(pool.view(hello).data() == owner.data());
  // The same text from elsewhere maps to the first id.
  CHECK(pool.intern_stable(std::string_view(owner).substr(13, 5)) == hello);
  CHECK(pool.intern("hello") == hello);
  CHECK(pool.size() == 2);
}

TEST_CASE("find looks up without inserting", "[store][string_pool]") {
  StringPool pool;
  CHECK_FALSE(pool.find("aten::add").has_value());
  CHECK(pool.size() == 1);  // find added nothing
  const StrId id = pool.intern("aten::add");
  auto found = pool.find("aten::add");
  REQUIRE(found.has_value());
  CHECK(*found == id);
  CHECK_FALSE(pool.find("aten::add_").has_value());
  CHECK_FALSE(pool.find("aten::ad").has_value());
  CHECK(pool.size() == 2);
}

TEST_CASE("growth past many thousands of strings keeps every id and lookup right",
          "[store][string_pool]") {
  StringPool pool;
  const int n = 100000;
  std::vector<StrId> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = pool.intern("name_" + std::to_string(i));
  CHECK(pool.size() == static_cast<size_t>(n) + 1);

  size_t wrong_view = 0, wrong_find = 0, wrong_reintern = 0, out_of_range = 0;
  for (int i = 0; i < n; ++i) {
    const std::string s = "name_" + std::to_string(i);
    if (ids[i] >= pool.size()) ++out_of_range;
    else if (pool.view(ids[i]) != s) ++wrong_view;
    auto f = pool.find(s);
    if (!f || *f != ids[i]) ++wrong_find;
    if (pool.intern(s) != ids[i]) ++wrong_reintern;
  }
  CHECK(out_of_range == 0);
  CHECK(wrong_view == 0);
  CHECK(wrong_find == 0);
  CHECK(wrong_reintern == 0);
  CHECK(pool.size() == static_cast<size_t>(n) + 1);  // re-interning added nothing

  std::vector<StrId> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  CHECK(sorted.front() != kEmptyStr);
  CHECK_FALSE(pool.find("name_" + std::to_string(n)).has_value());
}

TEST_CASE("5000-character strings are interned whole", "[store][string_pool]") {
  StringPool pool;
  const std::string base(5000, 'k');
  std::string last = base, middle = base, first = base;
  last[4999] = 'q';
  middle[2500] = 'q';
  first[0] = 'q';
  const std::string longer = base + "k";         // 5001 characters
  const std::string odd_tail = base + "abc";     // length not a multiple of 8

  const StrId id_base = pool.intern(base);
  const StrId id_last = pool.intern(last);
  const StrId id_middle = pool.intern(middle);
  const StrId id_first = pool.intern(first);
  const StrId id_longer = pool.intern(longer);
  const StrId id_odd = pool.intern(odd_tail);

  std::vector<StrId> ids = {id_base, id_last, id_middle, id_first, id_longer, id_odd};
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());

  CHECK(pool.intern(std::string(5000, 'k')) == id_base);
  CHECK(pool.intern_stable(last) == id_last);
  CHECK(pool.view(id_base).size() == 5000);
  CHECK(pool.view(id_base) == base);
  CHECK(pool.view(id_middle) == middle);
  CHECK(pool.view(id_longer).size() == 5001);
  CHECK(pool.view(id_odd) == odd_tail);
  REQUIRE(pool.find(first).has_value());
  CHECK(*pool.find(first) == id_first);
}
