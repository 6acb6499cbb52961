#pragma once
// The object type of the scenario reader's JSON document: one vector of
// (key, value) pairs kept sorted by key, with the part of std::map's
// interface that nlohmann::basic_json uses. It iterates in std::map's order,
// so every message that lists an object's keys reads the same, and a
// document of 100,000 candidates is built and freed with one allocation per
// object instead of one per key (docs/performance.md "Scenario parse").
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace leasescope::sim::scenario_detail {

// Keys compared byte by byte, in std::string's order (bytes unsigned): they
// are short ("lease", "action"), and a call to memcmp for each comparison
// cost more than the comparison.
inline bool key_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i]) return false;
    }
    return true;
}
inline bool key_less(std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
    }
    return a.size() < b.size();
}

// Key is a string type; nlohmann passes a comparator and an allocator of
// std::map's kind, which this type does not need (the comparison is
// std::string_view's, as std::less<std::string> orders).
template <class Key, class T, class IgnoredLess = std::less<>,
          class IgnoredAllocator = std::allocator<std::pair<const Key, T>>>
class SortedMap : public std::vector<std::pair<Key, T>> {
    using Container = std::vector<std::pair<Key, T>>;

public:
    using key_type = Key;
    using mapped_type = T;
    using key_compare = std::less<>;  // transparent: a lookup by a char* or view builds no Key
    using value_type = typename Container::value_type;
    using size_type = typename Container::size_type;
    using iterator = typename Container::iterator;
    using const_iterator = typename Container::const_iterator;

    SortedMap() = default;
    template <class It>
    SortedMap(It first, It last) {
        insert(first, last);
    }
    SortedMap(std::initializer_list<value_type> init) { insert(init.begin(), init.end()); }

    template <class K>
    iterator find(const K& key) {
        const size_type i = index_of(key);
        return i == npos ? this->end() : this->begin() + i;
    }
    template <class K>
    const_iterator find(const K& key) const {
        const size_type i = index_of(key);
        return i == npos ? this->end() : this->begin() + i;
    }
    template <class K>
    size_type count(const K& key) const {
        return index_of(key) == npos ? 0 : 1;
    }
    // As std::map::emplace: a key already there keeps its value.
    template <class K, class V>
    std::pair<iterator, bool> emplace(K&& key, V&& value) {
        const auto [pos, found] = locate(key);
        if (found) return {this->begin() + pos, false};
        return {Container::emplace(this->begin() + pos, std::forward<K>(key), std::forward<V>(value)), true};
    }
    std::pair<iterator, bool> insert(const value_type& v) { return emplace(v.first, v.second); }
    std::pair<iterator, bool> insert(value_type&& v) { return emplace(std::move(v.first), std::move(v.second)); }
    template <class It>
    void insert(It first, It last) {
        for (; first != last; ++first) emplace(first->first, first->second);
    }
    template <class K>
    T& operator[](K&& key) {
        return emplace(std::forward<K>(key), T()).first->second;
    }
    template <class K>
    T& at(const K& key) {
        const size_type i = index_of(key);
        if (i == npos) throw std::out_of_range("key not found");
        return Container::operator[](i).second;
    }
    template <class K>
    const T& at(const K& key) const {
        const size_type i = index_of(key);
        if (i == npos) throw std::out_of_range("key not found");
        return Container::operator[](i).second;
    }
    template <class K>
    size_type erase(const K& key) {
        const size_type i = index_of(key);
        if (i != npos) Container::erase(this->begin() + i);
        return i == npos ? 0 : 1;
    }
    iterator erase(iterator pos) { return Container::erase(pos); }
    iterator erase(const_iterator pos) { return Container::erase(pos); }
    iterator erase(const_iterator first, const_iterator last) { return Container::erase(first, last); }

private:
    static constexpr size_type npos = static_cast<size_type>(-1);
    // Where `key` is or would go, and whether it is there (key_less).
    template <class K>
    std::pair<size_type, bool> locate(const K& key) const {
        const std::string_view k(key);
        const auto it = std::lower_bound(this->begin(), this->end(), k,
                                         [](const value_type& a, std::string_view b) { return less(a.first, b); });
        return {static_cast<size_type>(it - this->begin()), it != this->end() && equal(it->first, k)};
    }
    // The index of `key`, or npos. Most objects have a dozen keys or fewer:
    // those are scanned, most keys differing from the one sought in length.
    template <class K>
    size_type index_of(const K& key) const {
        const std::string_view k(key);
        if (this->size() > scan_max) {
            const auto [pos, found] = locate(k);
            return found ? pos : npos;
        }
        for (size_type i = 0; i < this->size(); ++i) {
            if (equal(Container::operator[](i).first, k)) return i;
        }
        return npos;
    }
    static constexpr size_type scan_max = 16;
    static bool equal(std::string_view a, std::string_view b) { return key_equal(a, b); }
    static bool less(std::string_view a, std::string_view b) { return key_less(a, b); }
};

}  // namespace leasescope::sim::scenario_detail
